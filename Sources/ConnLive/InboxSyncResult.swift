import ConnCore
import Foundation

/// What one inbox sync of the live session came to (`conn agent status`'s `lastSync`, the
/// agent's `sync` lines). JSON keys are part of the output contract.
public struct InboxSyncResult: Codable, Sendable, Equatable {
    public var at: Date
    public var ok: Bool
    public var new: Int
    public var updated: Int
    public var notModified: Bool
    public var error: String?

    public init(at: Date, ok: Bool, new: Int, updated: Int, notModified: Bool, error: String?) {
        self.at = at
        self.ok = ok
        self.new = new
        self.updated = updated
        self.notModified = notModified
        self.error = error
    }

    /// `2 new, 0 updated`, `unchanged` or `failed: why`, sanitised.
    public var text: String {
        guard ok else { return "failed: " + TerminalSanitizer.sanitize(error ?? "?", keepNewlines: false) }
        return notModified ? "unchanged" : "\(new) new, \(updated) updated"
    }
}
