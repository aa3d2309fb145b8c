import ConnProtocol
import Foundation

/// Makes realistic inboxes for tests and benchmarks: conversations with replies and replies to
/// replies, a few replies whose parent is absent, varied `dateTime` formats. Deterministic for a
/// given seed, so benchmark data is the same on every run.
public struct InboxGenerator {
    private var random: SplitMix64

    public init(seed: UInt64 = 42) { random = SplitMix64(seed: seed) }

    static let people = ["matt", "jhon", "ana", "li.wei", "sofia", "kwame", "ingrid", "ravi", "noor", "tomas", "yuki", "olga"]
    static let domains = ["gmail.com", "example.com", "mail.example.org", "corp.example.net"]
    static let topics = [
        "Quarterly report", "Lunch on Friday?", "Build is red again", "Invoice 2211", "Trip to Lisbon",
        "Release notes draft", "Password reset", "Team offsite", "Server migration", "Design review",
        "Holiday schedule", "Welcome aboard", "Contract renewal", "Bug in login flow", "Conference talk",
    ]
    static let sentences = [
        "Lorem Ipsum is simply dummy text of the printing and typesetting industry.",
        "Could you take a look before the end of the day?",
        "I attached the numbers from last week; the trend is still up.",
        "Let's move the meeting to Thursday, the room is booked on Wednesday.",
        "Thanks for the quick turnaround, this unblocks the release.",
        "The staging server has been flaky since the network change.",
        "Please confirm you received the signed copy.",
        "It has survived not only five centuries, but also the leap into electronic typesetting.",
    ]

    /// `count` e-mails with uids "1"…"count", oldest first.
    public mutating func generate(count: Int) -> [Email] {
        var emails: [Email] = []
        emails.reserveCapacity(count)
        var subjects: [String: String] = [:]
        let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        for index in 1...max(count, 1) where index <= count {
            let uid = String(index)
            let from = address(), to = address()
            let roll = random.next() % 100
            var parent = ""
            var subject = Self.topics[Int(random.next() % UInt64(Self.topics.count))]
            if roll < 40, index > 1 {
                // A reply to a recent message: threads grow in depth and breadth.
                let window = UInt64(min(index - 1, 50))
                let target = index - 1 - Int(random.next() % window)
                parent = String(target)
                subject = "Re: " + (subjects[parent] ?? subject).replacingOccurrences(of: "Re: ", with: "")
            } else if roll < 42 {
                parent = "missing-\(random.next() % 10_000)"  // its parent was never fetched
                subject = "Re: " + subject
            }
            subjects[uid] = subject
            let sentenceCount = 2 + Int(random.next() % 5)
            let text = (0..<sentenceCount).map { _ in Self.sentences[Int(random.next() % UInt64(Self.sentences.count))] }.joined(separator: " ")
            let date = start.addingTimeInterval(Double(index) * 600)
            emails.append(Email(uid: uid, from: from, to: to, subject: subject, text: text, responseToUid: parent, dateTime: dateText(date, index: index, count: count)))
        }
        return emails
    }

    private mutating func address() -> String {
        Self.people[Int(random.next() % UInt64(Self.people.count))] + "@" + Self.domains[Int(random.next() % UInt64(Self.domains.count))]
    }

    /// Mostly RFC 2822, some ISO 8601, and seed 003's free text for the newest.
    private mutating func dateText(_ date: Date, index: Int, count: Int) -> String {
        if index > count - 3 { return "Today" }
        if index > count - 6 { return "Yesterday" }
        if random.next() % 5 == 0 {
            return date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        }
        return ServerClock.httpDate(millisecondsSinceEpoch: Int64(date.timeIntervalSince1970 * 1000)).replacingOccurrences(of: " GMT", with: " +0000")
    }
}

/// A small, fast, seedable generator (Steele, Lea, Flood 2014).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
