import AsyncHTTPClient
import ConnCore
import ConnProtocol
import ConnTestSupport
import Foundation
import Testing

/// conn-server under clients that are careless or hostile: half-sent requests, the bearer scheme in
/// any case, one Idempotency-Key spelled two ways, a token kept out of `ps`.
@Suite("conn-server hardening")
struct ServerHardeningTests {
    @Test("a connection that sends half a request and then nothing is closed after --idle-timeout")
    func halfSentRequestIsClosed() async throws {
        try await ServerProcess.with(["--idle-timeout", "0.5"]) { url in
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #expect(descriptor >= 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(url.port!).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            #expect(connected == 0)
            let partial = Array("GET /inbox HTTP/1.1\r\nHost: x\r\n".utf8)
            #expect(send(descriptor, partial, partial.count, 0) == partial.count)
            // Wait up to 10 s for the server to close it: recv returns 0 (EOF) then.
            var wait = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            // Timed on the thread that waits: the test's own task may resume late on a loaded run.
            let (received, error, waited) = await onOwnThread { () -> (Int, Int32, Duration) in
                let clock = ContinuousClock()
                let start = clock.now
                var buffer = [UInt8](repeating: 0, count: 512)
                let received = recv(descriptor, &buffer, buffer.count, 0)
                return (received, errno, start.duration(to: clock.now))
            }
            #expect(received == 0, "the half-sent request was not closed (recv \(received), errno \(error))")
            #expect(waited < .seconds(9), "closed after \(waited)")
        }
    }

    @Test("a request body trickled a byte every 0.2 s, which renews --idle-timeout 1 with each byte, is cut off at --request-timeout 2")
    func trickledBodyIsClosed() async throws {
        try await ServerProcess.with(["--idle-timeout", "1", "--request-timeout", "2"]) { url in
            let trickle = """
                import socket, sys, time
                s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
                s.sendall(b"POST /messages HTTP/1.1\\r\\nHost: x\\r\\nContent-Type: application/json\\r\\nContent-Length: 400\\r\\n\\r\\n")
                start = time.monotonic()
                try:
                    for _ in range(400):
                        s.sendall(b" "); time.sleep(0.2)
                        s.setblocking(False)
                        try:
                            if s.recv(1) == b"": break
                        except BlockingIOError: pass
                        s.setblocking(True)
                except (BrokenPipeError, ConnectionResetError): pass
                print(round(time.monotonic() - start, 1))
                """
            let outcome = try await ConnProcess.run("/usr/bin/python3", ["-c", trickle, String(url.port!)], environment: [:])
            let seconds = Double(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .infinity
            // Closed at 2 s (+ the next byte's 0.2 s and much room for a loaded machine); the whole body takes 80 s.
            #expect(seconds < 25, "the trickled body held the connection \(seconds) s: \(outcome.standardError)")
        }
    }

    @Test("option values past their bounds are usage errors (64), never a signal: --generate, --skew-ms, --latency-ms, --request-timeout")
    func optionBounds() async throws {
        for arguments in [["--generate", "99999999999"], ["--generate", "1000001"], ["--skew-ms", "9223372036854775807"],
                          ["--skew-ms", "-9223372036854775808"], ["--latency-ms", "9223372036854775807"], ["--request-timeout", "nan"],
                          ["--request-timeout", "0"]] {
            let outcome = try await ConnProcess.run(ConnProcess.productsDirectory + "/conn-server", ["--port", "0"] + arguments, environment: [:])
            #expect(outcome.exitCode == 64, "\(arguments): \(outcome.exitCode) \(outcome.standardError.prefix(300))")
            #expect(outcome.standardError.contains(arguments[0]), "\(arguments): \(outcome.standardError.prefix(300))")
        }
    }

    @Test("the bearer scheme is case-insensitive; the token is not")
    func bearerSchemeAnyCase() async throws {
        try await ServerProcess.with(["--token", "Tok3n"]) { url in
            let client = ServerClient(base: url)
            for header in ["Bearer Tok3n", "bearer Tok3n", "BEARER Tok3n", "bEaReR  Tok3n"] {
                let status = try await client.request(.GET, "/inbox", headers: [("Authorization", header)]).status
                #expect(status == 200, "\(header)")
            }
            for header in ["Bearer tok3n", "Bearer", "BearerTok3n", "Basic Tok3n", "Bearer Tok3n x"] {
                let status = try await client.request(.GET, "/inbox", headers: [("Authorization", header)]).status
                #expect(status == 401, "\(header)")
            }
        }
    }

    @Test("one Idempotency-Key in upper and in lower case is one key: stored once, replayed")
    func keyComparedAsUUID() async throws {
        try await ServerProcess.with([]) { url in
            let client = ServerClient(base: url)
            let key = UUID().uuidString
            let submission = MessageSubmission(to: "a@example.com", subject: "once", text: "t")
            let first = try await client.post(submission, key: key.uppercased())
            let second = try await client.post(submission, key: key.lowercased())
            #expect(first.status == 201 && second.status == 201)
            #expect(second.headers.first(name: ConnProtocol.replayedHeader) == "true")
            #expect(try await client.inbox().filter { $0.subject == "once" }.count == 1)
            let accepted = try first.decode(MessageAccepted.self)
            #expect(accepted.idempotencyKey == key.lowercased())
            #expect(accepted.isAcceptance(of: submission, idempotencyKey: key))
        }
    }

    @Test("the token from --token-file or CONN_SERVER_TOKEN, so it stays out of `ps`")
    func tokenFromFileOrEnvironment() async throws {
        let directory = try TemporaryDirectory()
        // Saved with LF and with CRLF line ends ("\r\n" is one Character: it was never cut).
        for (name, text) in [("token", "fromFile\nignored second line\n"), ("token-crlf", "fromFile\r\nignored second line\r\n")] {
            let file = try directory.write(name, text)
            try await ServerProcess.with(["--token-file", file]) { url in
                let client = ServerClient(base: url)
                let status = try await client.request(.GET, "/inbox", headers: [("Authorization", "Bearer fromFile")]).status
                #expect(status == 200, "\(name)")
                let refused = try await client.request(.GET, "/inbox").status
                #expect(refused == 401)
            }
        }
        try await ServerProcess.with([], environment: ["CONN_SERVER_TOKEN": "fromEnv"]) { url in
            let client = ServerClient(base: url)
            let status = try await client.request(.GET, "/inbox", headers: [("Authorization", "Bearer fromEnv")]).status
            #expect(status == 200)
            let refused = try await client.request(.GET, "/inbox").status
            #expect(refused == 401)
        }
    }
}

/// conn-server's shutdown waits for the requests in flight only `--shutdown-grace` long.
@Suite("conn-server shutdown")
struct ServerShutdownTests {
    @Test("SIGTERM with a request held by --latency-ms 20000: ends after the 1 s grace (not 20 s), saying it cut one request; a bad grace is 64")
    func boundedGrace() async throws {
        let port = try HTTPPorts.free()
        let server = try SpawnedProcess(ServerProcess.serverPath, ["--port", String(port), "--latency-ms", "20000", "--shutdown-grace", "1"],
                                        output: .pipe, error: .pipe)
        let listening = try await LoopbackListener.waitUntilAccepting(port: port)
        #expect(listening)
        // A request the server has taken (it waits its 20 s before answering).
        let client = try SpawnedProcess("/usr/bin/curl", ["-s", "-m", "60", "http://127.0.0.1:\(port)/health"])
        defer { client.signal(SIGKILL) }
        try await Task.sleep(for: .milliseconds(300))
        let signalled = Date()
        server.signal(SIGTERM)
        let status = await server.exited(killingAfter: 30)
        let took = Date().timeIntervalSince(signalled)
        #expect(status == 0 && took < 10, "exit \(status) after \(took) s")
        let said = String(decoding: (try? server.standardError?.readToEnd()) ?? Data(), as: UTF8.self)
        #expect(said.contains("stopped after 1 s, cutting 1 request in flight"), "\(said)")

        let bad = try await ConnProcess.run(ServerProcess.serverPath, ["--shutdown-grace", "-1"], environment: [:])
        #expect(bad.exitCode == 64 && bad.standardError.contains("--shutdown-grace"), "\(bad.standardError)")
    }
}
