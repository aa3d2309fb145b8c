import Foundation
import GRDB

/// Which cached copy of the inbox the offline commands read — one rule for `inbox list`,
/// `inbox thread`, `inbox sources` and Tab completion of uids: the configured inbox's own copy,
/// else one of an unknown source (written by an older conn, shown until the next fetch); with
/// no inbox configured (no server, no full `resources.inbox` URL), the latest fetched.
public enum InboxCopyRule {
    /// A query for that copy's `inboxSource` row id, and its arguments.
    public static func sourceIdQuery(configured: URL?) -> (sql: String, arguments: StatementArguments) {
        guard let configured else {
            return ("SELECT id FROM inboxSource ORDER BY fetchedAt DESC, id DESC LIMIT 1", [])
        }
        return ("SELECT id FROM inboxSource WHERE inboxKey IN (?, '') ORDER BY inboxKey = '' LIMIT 1", [ResourceKey.of(configured)])
    }
}
