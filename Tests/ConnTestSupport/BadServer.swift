import Foundation
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A deliberately hostile HTTP and WebSocket server (Tests/BadServer/bad_server.py) that answers
/// what a test scripts: portal pages, redirects, crafted WebSocket frames, trickled bytes. It logs
/// every request, so a test can check what conn sent and to whom.
public struct BadServer: Sendable {
    /// One scripted answer. See bad_server.py for what each field does.
    public struct Route: Encodable, Sendable {
        public var method: String?
        public var path: String
        public var status: Int?
        public var headers: [[String]]?
        public var body: String?
        public var trickle: Trickle?
        public var close: Bool?
        public var websocket: WebSocketPlan?
        /// Answer this many zero bytes, gzip-compressed: a decompression bomb.
        public var gzipZeros: Int?
        /// The Nth request the route matches gets the Nth of these (the last repeats).
        public var inTurn: [Answer]?
        /// Honour Idempotency-Key: apply (log `applied`) once per key, replay the answer after.
        public var idempotent: Bool?
        /// `inTurn` goes round instead of repeating its last answer.
        public var cycle: Bool?

        public init(method: String? = nil, path: String, status: Int? = nil, headers: [[String]]? = nil, body: String? = nil,
                    trickle: Trickle? = nil, close: Bool? = nil, websocket: WebSocketPlan? = nil, gzipZeros: Int? = nil) {
            self.method = method
            self.path = path
            self.status = status
            self.headers = headers
            self.body = body
            self.trickle = trickle
            self.close = close
            self.websocket = websocket
            self.gzipZeros = gzipZeros
        }

        /// Answers in turn: the first request gets the first, and so on; the last repeats.
        public static func inTurn(_ method: String? = nil, _ path: String, _ answers: [Answer], idempotent: Bool? = nil, cycle: Bool? = nil) -> Route {
            var route = Route(method: method, path: path)
            route.inTurn = answers
            route.idempotent = idempotent
            route.cycle = cycle
            return route
        }

        /// An answer with a body of the given type.
        public static func answer(_ method: String? = nil, _ path: String, status: Int, contentType: String = "application/json",
                                  headers: [[String]] = [], body: String) -> Route {
            Route(method: method, path: path, status: status, headers: [["Content-Type", contentType]] + headers, body: body)
        }

        /// A redirect to `location` ("{port}" is this server's port).
        public static func redirect(_ method: String? = nil, _ path: String, status: Int, to location: String) -> Route {
            Route(method: method, path: path, status: status, headers: [["Location", location]], body: "")
        }
    }

    /// One answer of a route's `inTurn`.
    public struct Answer: Encodable, Sendable {
        public var status: Int
        public var headers: [[String]]
        public var body: String
        public init(_ status: Int, headers: [[String]] = [], body: String = "") {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    public struct Trickle: Encodable, Sendable {
        public var bytes: Int
        public var intervalMs: Int
        /// The status line and headers at once, then the body trickled (else the whole answer is).
        public var afterHead: Bool
        public init(bytes: Int, intervalMs: Int, afterHead: Bool = false) {
            self.afterHead = afterHead
            self.bytes = bytes
            self.intervalMs = intervalMs
        }
    }

    public struct WebSocketPlan: Encodable, Sendable {
        public var frames: [String]
        public var rawFrames: [String]
        /// Answers each client `ping{t1}` with these texts, "{t1}" replaced by the ping's t1 and
        /// "{now}" by the server's time in ms.
        public var onPing: [String]?
        /// Answers the client's Nth ping with the Nth of these (cycling), as onPing does; "{now+D}"
        /// is the server's time plus D ms.
        public var onPingInTurn: [String]?
        public var holdMs: Int

        public init(frames: [String] = [], rawFrames: [String] = [], onPing: [String]? = nil, onPingInTurn: [String]? = nil, holdMs: Int = 5000) {
            self.frames = frames
            self.rawFrames = rawFrames
            self.onPing = onPing
            self.onPingInTurn = onPingInTurn
            self.holdMs = holdMs
        }
    }

    /// One request as the server saw it.
    public struct LoggedRequest: Decodable, Sendable {
        public var method: String
        public var path: String
        public var headers: [[String]]
        public var body: String
        /// The body's exact bytes.
        public var bodyBase64: String?
        public var bodyBytes: Data { bodyBase64.flatMap { Data(base64Encoded: $0) } ?? Data(body.utf8) }

        public func header(_ name: String) -> String? {
            headers.first { $0.first?.caseInsensitiveCompare(name) == .orderedSame }?.last
        }
    }

    public let url: URL
    let logPath: String
    /// The PEM certificate it serves with `tls` (names localhost and 127.0.0.1), to trust in a test.
    public let certificatePath: String?
    /// The python process, to freeze (SIGSTOP) and continue.
    public var processIdentifier: pid_t? = nil

    /// Every request received so far, oldest first.
    public func requests() throws -> [LoggedRequest] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{\"method\"") else { return nil }
            return try JSONDecoder().decode(LoggedRequest.self, from: Data(line.utf8))
        }
    }

    /// The idempotency keys the server applied (`idempotent` routes), in order: once each.
    public func applied() -> [String] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{\"applied\""),
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
            else { return nil }
            return object["applied"]
        }
    }

    /// The server name of each TLS handshake, in order; nil where the client sent no SNI.
    public func tlsServerNames() -> [String?] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{\"tlsServerName\""),
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            else { return nil }
            return .some(object["tlsServerName"] as? String)
        }
    }

    /// The text frames conn sent over a WebSocket whose plan answers pings.
    public func webSocketTexts() -> [String] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{\"websocketText\""),
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
            else { return nil }
            return object["websocketText"]
        }
    }

    static var scriptPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BadServer/bad_server.py").path
    }

    /// Runs the server on `host` (a loopback address) for the length of `body`; with `tls`, over
    /// TLS with a fresh self-signed certificate for `localhost` (openssl).
    public static func with<Result: Sendable>(
        _ routes: [Route], host: String = "127.0.0.1", port: Int = 0, tls: Bool = false, _ body: (BadServer) async throws -> Result
    ) async throws -> Result {
        let directory = try TemporaryDirectory()
        let scriptFile = directory.path + "/script.json"
        let logPath = directory.path + "/requests.jsonl"
        try JSONEncoder().encode(["routes": routes]).write(to: URL(fileURLWithPath: scriptFile))
        var arguments = [scriptPath, "--script", scriptFile, "--log", logPath, "--host", host, "--port", String(port)]
        let certificate = tls ? directory.path + "/cert.pem" : nil
        if let certificate {
            let key = directory.path + "/key.pem"
            let made = try await Subprocess.run(
                .name("openssl"),
                arguments: ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-days", "1"],
                output: .discarded, error: .discarded)
            guard made.terminationStatus.isSuccess else { throw ServerProcess.StartFailure(description: "openssl req failed") }
            arguments += ["--tls", certificate, key]
        }
        let outcome = try await Subprocess.run(
            .name("python3"), arguments: Arguments(arguments),
            input: .none, output: .sequence, error: .discarded
        ) { execution in
            var lines = execution.standardOutput.strings().makeAsyncIterator()
            guard let first = try await lines.next(), first.hasPrefix("listening on "),
                let url = URL(string: first.dropFirst("listening on ".count).trimmingCharacters(in: .whitespacesAndNewlines))
            else {
                try? execution.send(signal: .kill)
                throw ServerProcess.StartFailure(description: "bad_server.py did not start")
            }
            defer { try? execution.send(signal: .kill) }
            var server = BadServer(url: url, logPath: logPath, certificatePath: certificate)
            server.processIdentifier = execution.processIdentifier.value
            return try await body(server)
        }
        _ = directory
        return outcome.closureResult
    }
}
