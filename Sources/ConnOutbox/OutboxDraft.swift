/// A message as the user wrote it, before it has an id.
public struct OutboxDraft: Sendable, Equatable {
    public var to: String
    public var subject: String
    public var text: String
    public var responseToUid: String?

    public init(to: String, subject: String, text: String, responseToUid: String?) {
        self.to = to
        self.subject = subject
        self.text = text
        self.responseToUid = responseToUid
    }
}
