import GRDB

/// Rewrites text a database stored before URLs with `user:password@` were refused (an inbox
/// source, an outbox error naming the server's URL), so the password no longer sits in the file.
public enum UserinfoRedaction {
    /// Redacts every URL in `column` of `table` (rows found by `keyColumn`); `secure_delete`
    /// overwrites the old text in the freed space instead of leaving it in the page.
    public static func redact(_ db: Database, table: String, column: String, keyColumn: String) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT \(keyColumn) AS key, \(column) AS value FROM \(table) WHERE \(column) LIKE '%://%@%'")
        guard !rows.isEmpty else { return }
        try db.execute(sql: "PRAGMA secure_delete = ON")
        defer { try? db.execute(sql: "PRAGMA secure_delete = OFF") }
        for row in rows {
            guard let value: String = row["value"] else { continue }
            let redacted = URLUserinfo.redactingEveryURL(in: value)
            guard redacted != value else { continue }
            try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE \(keyColumn) = ?",
                           arguments: [redacted, row["key"] as DatabaseValue])
        }
    }
}
