import ConnTestSupport
import ConnCore
import Foundation
import Testing

/// Failures of the local disk and of the answer's encoding get the right class, not "a bug in
/// conn" (70) or "cannot reach" (69): a full disk is 74, a lock held past the busy timeout 75, a
/// corrupt database 65 with the way out, a decompression bomb 65.
@Suite("storage and decoding failures are classified")
struct StorageFailureTests {
    static let closedServer = "http://127.0.0.1:1"

    @Test("disk full during send: 74, 'the disk is full' with the bytes free, not an I/O error nor 'a bug in conn'", .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func diskFull() async throws {
        let home = try TemporaryDirectory()
        let data = home.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let mounted = try await ConnProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", data], environment: [:])
        try #require(mounted.exitCode == 0, "mount: \(mounted.standardError)")
        defer { _ = umount(data) }
        // Create the database, then fill the disk.
        #expect(try await home.conn(["outbox", "list"]).exitCode == 0)
        _ = try await ConnProcess.run("/bin/sh", ["-c", "dd if=/dev/zero of='\(data)/fill' bs=4k 2>/dev/null; true"], environment: [:])
        let text = try home.write("text.txt", String(repeating: "x", count: 600_000))
        let sent = try await home.conn(["send", "--to", "a@b.cc", "--subject", "s", "--file", text], env: ["CONN_SERVER": Self.closedServer])
        #expect(sent.exitCode == 74, "exit \(sent.exitCode): \(sent.standardError)")
        #expect(sent.standardError.contains("the disk is full (") && sent.standardError.contains("bytes free on \(data)/conn)"), "\(sent.standardError)")
        #expect(!sent.standardError.contains("bug in conn") && !sent.standardError.contains("I/O error"))
    }

    /// What an inbox fetch onto a full disk did and left: a copy of 3 messages fetched onto a
    /// 2 MB tmpfs, the disk then filled (`fillBlocks` of 4 KiB, all of it for nil), and 5,000
    /// messages fetched with --force; then the fill removed, `inspect` shown the data
    /// directory, and the copy's conversations counted before and after.
    private func fetchOntoFullDisk(fillBlocks: Int?, inspect: (String) throws -> Void = { _ in }) async throws
        -> (fetched: ProcessOutcome, listed: ProcessOutcome, before: Int?, after: Int?)
    {
        let home = try TemporaryDirectory()
        let data = home.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let mounted = try await ConnProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", data], environment: [:])
        try #require(mounted.exitCode == 0, "mount: \(mounted.standardError)")
        defer { _ = umount(data) }
        let small = try await BackgroundServer.start(["--generate", "3"])
        let url = small.url
        #expect(try await home.conn(["inbox", "fetch"], server: url).exitCode == 0)
        let before = try await home.conn(["inbox", "list", "--json", "--all"], server: url).json()["total"] as? Int
        await small.stop()
        let count = fillBlocks.map { " count=\($0)" } ?? ""
        _ = try await ConnProcess.run("/bin/sh", ["-c", "dd if=/dev/zero of='\(data)/fill' bs=4k\(count) 2>/dev/null; true"], environment: [:])
        let big = try await BackgroundServer.start(["--generate", "5000", "--port", String(url.port!)])
        let fetched = try await home.conn(["inbox", "fetch", "--force"], server: url)
        await big.stop()
        try FileManager.default.removeItem(atPath: data + "/fill")
        try inspect(data)
        let listed = try await home.conn(["inbox", "list", "--json", "--all"], server: url)
        return (fetched, listed, before, try listed.json()["total"] as? Int)
    }

    @Test("disk full during inbox fetch: 74, 'the disk is full' with the bytes free, the cached copy left as it was", .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func diskFullDuringFetch() async throws {
        let (fetched, listed, before, after) = try await fetchOntoFullDisk(fillBlocks: nil)
        #expect(fetched.exitCode == 74, "exit \(fetched.exitCode): \(fetched.standardError)")
        #expect(fetched.standardError.contains("the disk is full (") && fetched.standardError.contains("bytes free on"), "\(fetched.standardError)")
        #expect(before != nil && after == before, "the old copy, whole: \(listed.standardOutput.prefix(300)) \(listed.standardError)")
    }

    @Test("disk full while the inbox downloads (the body goes to a file beside the cache): 74, 'the disk is full', the cached copy whole, no file left", .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func diskFullDuringDownload() async throws {
        // Room for the database's own writes, not for a 2 MB inbox.
        let (fetched, listed, before, after) = try await fetchOntoFullDisk(fillBlocks: 400) { data in
            let left = try FileManager.default.contentsOfDirectory(atPath: data + "/conn").filter { $0.contains("download") }
            #expect(left.isEmpty, "download files left: \(left)")
        }
        #expect(fetched.exitCode == 74, "exit \(fetched.exitCode): \(fetched.standardError)")
        #expect(fetched.standardError.contains("the disk is full (") && fetched.standardError.contains("not downloaded"), "\(fetched.standardError)")
        #expect(before != nil && after == before, "the old copy, whole: \(listed.standardOutput.prefix(300)) \(listed.standardError)")
    }

    @Test("a directory conn needs cannot be created: 74 naming it, the same for the database's, the config file's and the agent's")
    func directoryCannotBeCreated() async throws {
        let home = try TemporaryDirectory()
        // A file where a parent directory should be: mkdir fails whoever runs the test (root too).
        let file = try home.write("a-file", "")
        let cases: [(arguments: [String], variable: String)] = [
            (["outbox", "list"], "XDG_DATA_HOME"),
            (["config", "edit"], "XDG_CONFIG_HOME"),
            (["config", "set", "server", "http://127.0.0.1:1"], "XDG_CONFIG_HOME"),
            (["agent", "run"], "XDG_RUNTIME_DIR"),
        ]
        for (arguments, variable) in cases {
            let outcome = try await home.conn(arguments, server: URL(string: Self.closedServer),
                                              env: [variable: file + "/below", "EDITOR": "true", "VISUAL": ""])
            #expect(outcome.exitCode == 74, "\(arguments): exit \(outcome.exitCode): \(outcome.standardError)")
            // Which directory, and the system's reason.
            #expect(outcome.standardError.contains("cannot create directory \(file)/below") && outcome.standardError.contains("Not a directory"),
                    "\(arguments): \(outcome.standardError)")
            #expect(!outcome.standardError.contains("bug in conn"), "\(arguments): \(outcome.standardError)")
        }
    }

    @Test("a corrupt database: 65 naming the file, with the command that moves it aside")
    func corruptDatabase() async throws {
        let home = try TemporaryDirectory()
        let path = try home.write("data/conn/conn.sqlite", String(repeating: "not a database at all ", count: 500))
        let listed = try await home.conn(["outbox", "list"])
        #expect(listed.exitCode == 65, "exit \(listed.exitCode): \(listed.standardError)")
        #expect(listed.standardError.contains(path) && listed.standardError.contains("mv "), "\(listed.standardError)")
    }

    @Test("a database locked by another process past the busy timeout: 75, 'locked', not 69")
    func lockedDatabase() async throws {
        let home = try TemporaryDirectory()
        #expect(try await home.conn(["outbox", "list"]).exitCode == 0)
        let path = home.path + "/data/conn/conn.sqlite"
        // Another process holds an exclusive lock for longer than conn's 10 s busy timeout, until
        // the test ends (conn may wait for a slot to run in: ProcessSlots).
        let holder = try SpawnedProcess("/usr/bin/python3", ["-c", "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(300)", path],
                                        output: .pipe)
        defer { holder.signal(SIGKILL) }
        _ = holder.standardOutput?.availableData  // "locked"
        let sent = try await home.conn(["send", "--to", "a@b.cc", "--subject", "s", "--text", "t"], env: ["CONN_SERVER": Self.closedServer])
        #expect(sent.exitCode == 75, "exit \(sent.exitCode): \(sent.standardError)")
        #expect(sent.standardError.contains("locked"), "\(sent.standardError)")
    }

    @Test("a read-only database: reading commands work, a write is refused with 77 saying so, nothing changes",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv to run conn as another user"))
    func readOnlyDatabase() async throws {
        let inbox = #"{"inbox":[{"uid":"1","from":"a@b.cc","to":"c@d.ee","subject":"kept","text":"t","responseToUid":"","dateTime":"Today"}]}"#
        try await BadServer.with([.answer("GET", "/inbox", status: 200, body: inbox)]) { server in
            let home = try TemporaryDirectory()
            let env = ["CONN_SERVER": server.url.absoluteString]
            #expect(try await home.conn(["inbox", "fetch"], env: env).exitCode == 0)
            _ = try await home.conn(["send", "--to", "a@b.cc", "--subject", "queued", "--text", "t"], env: ["CONN_SERVER": Self.closedServer])
            let path = home.path + "/data/conn/conn.sqlite"
            _ = try await ConnProcess.run("/bin/chown", ["-R", "nobody", home.path], environment: [:])
            chmod(path, 0o444)
            func asNobody(_ arguments: [String]) async throws -> ProcessOutcome {
                try await ConnProcess.run("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", ConnProcess.connPath] + arguments,
                                          environment: home.environment.merging(env) { $1 })
            }
            let listed = try await asNobody(["inbox", "list"])
            #expect(listed.exitCode == 0 && listed.standardOutput.contains("kept"), "\(listed.exitCode) \(listed.standardError)")
            let thread = try await asNobody(["inbox", "thread", "1"])
            #expect(thread.exitCode == 0, "\(thread.standardError)")
            let outbox = try await asNobody(["outbox", "list"])
            #expect(outbox.exitCode == 0 && outbox.standardOutput.contains("queued"), "\(outbox.exitCode) \(outbox.standardError)")
            let sent = try await asNobody(["send", "--to", "a@b.cc", "--subject", "never-written", "--text", "t"])
            #expect(sent.exitCode == 77 && sent.standardError.contains("read-only"), "\(sent.exitCode) \(sent.standardError)")
            let after = try await asNobody(["outbox", "list"])
            #expect(!after.standardOutput.contains("never-written"), "\(after.standardOutput)")
        }
    }

    @Test("a decompression bomb as the inbox: 65 'decompresses to more than', not 69 'cannot reach'")
    func decompressionBomb() async throws {
        try await BadServer.with([BadServer.Route(method: "GET", path: "/inbox", status: 200, headers: [["Content-Type", "application/json"]], gzipZeros: 50_000_000)]) { server in
            let home = try TemporaryDirectory()
            let fetched = try await home.conn(["inbox", "fetch"], env: ["CONN_SERVER": server.url.absoluteString])
            #expect(fetched.exitCode == 65, "exit \(fetched.exitCode): \(fetched.standardError)")
            #expect(fetched.standardError.contains("decompresses to more than"), "\(fetched.standardError)")
        }
    }
}
