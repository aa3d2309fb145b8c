import GRDB
import GRDBSQLite

/// A statement GRDB prepared, bound and run through SQLite's C API, for the loops that write or
/// read a row per e-mail (100,000 in one fetch). GRDB's `execute(arguments:)` boxes every value in an
/// existential and builds an array of them per row; in the profile of a full fetch that cost
/// more than SQLite's own inserts. Here a value is bound as it is, and text can be bound from
/// a buffer without becoming a String first.
///
/// Every value is bound with SQLITE_TRANSIENT (SQLite copies it), so nothing needs to outlive
/// the call that binds it. Set every parameter before each `run()`: bindings stay from the
/// previous row.
struct DirectStatement {
    private let statement: Statement
    private let connection: SQLiteConnection?

    init(_ statement: Statement, in db: Database) {
        self.statement = statement
        connection = db.sqliteConnection
    }

    private var handle: SQLiteStatement { statement.sqliteStatement }

    /// SQLite's "copy this value now".
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func bind(_ index: Int32, _ value: String) throws {
        var value = value
        try value.withUTF8 { try bind(index, text: UnsafeRawBufferPointer($0)) }
    }

    /// UTF-8 text, already validated (the JSON reader checked every string and the structure
    /// around them is ASCII).
    func bind(_ index: Int32, text: UnsafeRawBufferPointer) throws {
        // An empty buffer may have no base address; SQLite reads a null pointer as NULL, not "".
        let start = text.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)
        try check(sqlite3_bind_text(handle, index, start.assumingMemoryBound(to: CChar.self), Int32(text.count), Self.transient))
    }

    func bind(_ index: Int32, _ value: Double?) throws {
        if let value {
            try check(sqlite3_bind_double(handle, index, value))
        } else {
            try check(sqlite3_bind_null(handle, index))
        }
    }

    func bind(_ index: Int32, _ value: Int) throws {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    func bind(_ index: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Runs the statement (one that returns no rows: a row is an error) and resets it for the next row.
    func run() throws {
        _ = try step(rowsExpected: false)
    }

    /// Steps a statement that returns rows: true with a row to read, false (and reset) after the last.
    func nextRow() throws -> Bool {
        try step(rowsExpected: true)
    }

    /// Runs a look-up: the first row's first column (nil for no row, or NULL), the statement
    /// reset for the next.
    func firstInt64() throws -> Int64? {
        try first { int64($0) }
    }

    /// Runs a look-up: the first row's first column as text (nil for no row), the statement
    /// reset for the next.
    func firstText() throws -> String? {
        try first { text($0) }
    }

    /// The first row's first column read by `read`, or nil for no row; the statement reset.
    private func first<Value>(_ read: (Int32) -> Value?) throws -> Value? {
        let code = sqlite3_step(handle)
        let value = code == SQLITE_ROW ? read(0) : nil
        let failure = code == SQLITE_ROW || code == SQLITE_DONE ? nil : error(code)
        sqlite3_reset(handle)
        if let failure { throw failure }
        return value
    }

    private func step(rowsExpected: Bool) throws -> Bool {
        let code = sqlite3_step(handle)
        if rowsExpected && code == SQLITE_ROW { return true }
        // The message before the reset, which may replace it.
        let failure = code == SQLITE_DONE ? nil : error(code)
        sqlite3_reset(handle)
        if let failure { throw failure }
        return false
    }

    // The current row's columns, numbered from 0. A NULL reads as "" for text, nil for numbers.

    func text(_ column: Int32) -> String {
        guard let start = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    }

    func double(_ column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }

    func int64(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
    }

    private func check(_ code: Int32) throws {
        if code != SQLITE_OK { throw error(code) }
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: statement.sql)
    }
}
