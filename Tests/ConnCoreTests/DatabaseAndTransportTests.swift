import ConnCore
import ConnTestSupport
import Foundation
import GRDB
import Logging
import Testing

@Suite("Local database")
struct LocalDatabaseTests {
    @Test("opens durable: WAL, synchronous=FULL, busy timeout; migrations run once")
    func opensDurably() throws {
        let home = try TemporaryDirectory()
        let path = home.path + "/data/conn/conn.sqlite"
        let moduleMigration = DatabaseMigration("test.v1.things") { db in
            try db.create(table: "thing") { $0.column("name", .text) }
        }
        let database = try LocalDatabase(path: path, migrations: [moduleMigration])
        let (journalMode, synchronous, tables) = try database.writer.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"),
             try ["meta", "thing"].filter { try db.tableExists($0) })
        }
        #expect(journalMode == "wal")
        #expect(synchronous == 2)  // FULL, on the one connection that writes
        #expect(tables == ["meta", "thing"])
        try database.setMetaValue("lastOffset", "12")
        try database.setMetaValue("lastOffset", "13")
        // Reopening runs no migration twice and keeps the data.
        let reopened = try LocalDatabase(path: path, migrations: [moduleMigration])
        #expect(try reopened.metaValue("lastOffset") == "13")
        #expect(try reopened.metaValue("missing") == nil)
        // A process that knows only the core migrations still opens a database other modules touched.
        #expect(try LocalDatabase(path: path, migrations: []).metaValue("lastOffset") == "13")
    }

    @Test("opening and reading write nothing: the file is untouched and no -wal is left with frames (no fsync for a reading command)")
    func readingWritesNothing() throws {
        let home = try TemporaryDirectory()
        let path = home.path + "/data/conn/conn.sqlite"
        do {
            let database = try LocalDatabase(path: path, migrations: [])
            try database.setMetaValue("k", "v")
        }
        func state() throws -> (Date?, Int?) {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return (attributes[.modificationDate] as? Date, (attributes[.size] as? NSNumber)?.intValue)
        }
        let before = try state()
        usleep(20_000)  // a write now would show in the time
        for _ in 0..<3 {
            let database = try LocalDatabase(path: path, migrations: [])
            #expect(try database.metaValue("k") == "v")
            #expect(try database.writer.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        }
        #expect(try state() == before, "opening and reading wrote to the database file")
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
        #expect(wal == 0, "a -wal of \(wal) bytes after reading only")
        // The next write still goes through the WAL, durably.
        let database = try LocalDatabase(path: path, migrations: [])
        try database.setMetaValue("k", "w")
        #expect(try database.writer.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 2)
    }

    @Test("the database and its -wal and -shm are 0600 in a directory that already exists 0755, and an old 0644 database is tightened")
    func filesArePrivate() throws {
        let home = try TemporaryDirectory()
        let directory = home.path + "/data/conn"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let path = directory + "/conn.sqlite"
        func mode(_ file: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        let previous = umask(0o022)
        defer { umask(previous) }
        let database = try LocalDatabase(path: path, migrations: [])
        try database.setMetaValue("k", "v")
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file)")
            let fileMode = try mode(file)
            #expect(fileMode == 0o600, "\(file) is \(String(fileMode, radix: 8))")
        }
        chmod(path, 0o644)
        _ = try LocalDatabase(path: path, migrations: [])
        #expect(try mode(path) == 0o600)
    }

    @Test func unusablePathIsAClearError() throws {
        let home = try TemporaryDirectory()
        try home.write("file", "not a directory")
        let error = try #require(throws: ConnError.self) { try LocalDatabase(path: home.path + "/file/conn.sqlite", migrations: []) }
        // A local I/O failure, as for every directory conn cannot create; with the system's reason.
        #expect(error.exitStatus == .ioError)
        #expect(error.message.contains("cannot create directory \(home.path)/file: Not a directory"), "\(error.message)")
    }
}

@Suite("HTTP transport on loopback")
struct HTTPTransportTests {
    let logger = Logger(label: "test")

    @Test("a refused connection fails fast, not at the deadline, and says the host is up")
    func refusedIsFast() async throws {
        // Held closed for the run: a port only free for a moment was once taken by another
        // test's conn-server, which answered 204 where a refusal was expected.
        let port = try HTTPPorts.closed()
        // A deadline far above the bound: on a loaded CI machine the suite's threads were seen
        // busy for 18 s, so the bound only proves the deadline was not waited for.
        let transport = HTTPTransport(timeout: .seconds(90), credentials: nil, trust: .system, logger: logger)
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: ConnError.self) {
            try await transport.send(HTTPExchangeRequest(url: URL(string: "http://127.0.0.1:\(port)/health")!))
        }
        try await transport.shutdown()
        #expect(error?.code == .refused)
        #expect(error?.exitStatus == .unavailable)
        #expect(start.duration(to: clock.now) < .seconds(60))
    }

    @Test("a name that does not resolve is nxdomain, not 'offline'")
    func unresolvableName() async throws {
        // 30 s: the answer is quick alone, but under the whole suite's load the look-up once
        // took longer than 10 s, and the deadline's `timeout` came first.
        let transport = HTTPTransport(timeout: .seconds(30), credentials: nil, trust: .system, logger: logger)
        let error = await #expect(throws: ConnError.self) {
            // .invalid is reserved (RFC 2606): it never resolves.
            try await transport.send(HTTPExchangeRequest(url: URL(string: "http://no-such-host.invalid/health")!))
        }
        try await transport.shutdown()
        #expect(error?.code == .nxdomain)
    }

    @Test("a server that accepts but never answers hits the deadline", .timeLimit(.minutes(1)))
    func silentServerTimesOut() async throws {
        let listener = try LoopbackListener()  // listens; the kernel accepts, nobody answers
        defer { listener.close() }
        let transport = HTTPTransport(timeout: .milliseconds(300), credentials: nil, trust: .system, logger: logger)
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: ConnError.self) {
            try await transport.send(HTTPExchangeRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/")!))
        }
        // Without the deadline the request would never end (the time limit fails that): the
        // timeout error is the proof. No upper bound on the time: a CI run once resumed this test
        // 32 s late, every executor thread busy elsewhere.
        let elapsed = start.duration(to: clock.now)
        try await transport.shutdown()
        #expect(error?.code == .timeout)
        #expect(error?.exitStatus == .temporaryFailure)
        #expect(elapsed >= .milliseconds(250), "took \(elapsed)")
    }
}
