/// One e-mail as the inbox resource carries it (seed 003): every field is a string;
/// `responseToUid` is empty for a message that starts a conversation; `dateTime` is free text
/// ("Today", an RFC 2822 date, ISO 8601…).
public struct Email: Codable, Sendable, Equatable, Hashable {
    public var uid: String
    public var from: String
    public var to: String
    public var subject: String
    public var text: String
    public var responseToUid: String
    public var dateTime: String

    public init(uid: String, from: String, to: String, subject: String, text: String, responseToUid: String, dateTime: String) {
        self.uid = uid
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.responseToUid = responseToUid
        self.dateTime = dateTime
    }
}

/// The inbox resource's body: `{"inbox":[Email…]}`.
public struct InboxDocument: Codable, Sendable, Equatable {
    public var inbox: [Email]

    public init(inbox: [Email]) { self.inbox = inbox }
}
