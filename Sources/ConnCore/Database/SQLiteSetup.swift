import CSQLiteTuning

/// Process-wide SQLite settings, applied once before the first connection opens (SQLite accepts
/// them only before it initialises).
enum SQLiteSetup {
    private static let applied: Void = {
        // Memory statistics off: conn never reads them, and they cost a global mutex on every
        // allocation and free, which a 100,000-message fetch makes millions of (issue 20).
        _ = conn_sqlite3_disable_memory_statistics()
    }()

    /// Call before opening a connection; only the first call does anything.
    static func prepare() {
        _ = applied
    }
}
