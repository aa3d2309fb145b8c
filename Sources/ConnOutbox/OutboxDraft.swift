/// A message as the user wrote it, before it has an id.
public struct OutboxDraft: Sendable, Equatable {
    public var to: String
    public var subject: String
    public var text: String
    public var responseToUid: String?
    /// The server it is for; nil when none is configured (the first deliverer's then).
    public var target: OutboxTarget?
    public var profile: String?

    public init(to: String, subject: String, text: String, responseToUid: String?, target: OutboxTarget? = nil, profile: String? = nil) {
        self.to = to
        self.subject = subject
        self.text = text
        self.responseToUid = responseToUid
        self.target = target
        self.profile = profile
    }
}
