/// A message's thread flags (`inboxMessage.flags`), as bits: compared without making the text.
struct ThreadFlags: OptionSet {
    let rawValue: UInt8
    static let cycleBroken = ThreadFlags(rawValue: 1)
    static let duplicateUid = ThreadFlags(rawValue: 2)
    static let parentMissing = ThreadFlags(rawValue: 4)
    /// Stored text these bits do not spell: never equal to computed flags.
    static let unknown = ThreadFlags(rawValue: 0x80)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(stored text: String) {
        var flags: ThreadFlags = []
        for word in text.split(separator: ",") {
            switch word {
            case "cycleBroken": flags.insert(.cycleBroken)
            case "duplicateUid": flags.insert(.duplicateUid)
            case "parentMissing": flags.insert(.parentMissing)
            default: flags.insert(.unknown)
            }
        }
        if flags.text != text { flags.insert(.unknown) }
        self = flags
    }

    var text: String {
        var words: [String] = []
        if contains(.cycleBroken) { words.append("cycleBroken") }
        if contains(.duplicateUid) { words.append("duplicateUid") }
        if contains(.parentMissing) { words.append("parentMissing") }
        return words.joined(separator: ",")
    }
}
