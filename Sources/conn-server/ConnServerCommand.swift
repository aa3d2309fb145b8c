import ArgumentParser
import ConnProtocol
import ConnServer
import Foundation
import Logging

/// `conn-server`: the reference back end that conn talks to.
@main
struct ConnServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conn-server",
        abstract: "The reference back end for conn: health, inbox, messages, time and a WebSocket.",
        // The shape of HelpText.discussion (ConnCore, which this target does not link):
        // scripts/generate-man reads the Exit codes and Examples paragraphs into man sections.
        discussion: """
            Serves the protocol described in docs/protocol.md on loopback by default. Prints \
            `listening on http://HOST:PORT` on stdout once it accepts connections (with --port 0, \
            the port it picked). Stops on SIGINT or SIGTERM. The token may come from --token, \
            --token-file or the CONN_SERVER_TOKEN variable (a token on the command line is \
            visible to every user in `ps`: prefer the file or the variable).

            Exit codes: 0 stopped by SIGINT or SIGTERM; 64 a bad option; 1 the server could \
            not start (the port is taken, the data file cannot be opened).

            Examples:
              $ conn-server --port 8080 --generate 50
                  A server on 127.0.0.1:8080 with 50 generated e-mails in threads.
              $ CONN_SERVER_TOKEN=s3cr3t conn-server --data /tmp/inbox.sqlite --port 0
                  A token-protected server that keeps its inbox in a file, on a free port.
              $ conn-server --portal
                  Behave like a captive portal: an HTML sign-in page for everything.
            """)

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks a free one.") var port = 8080
    @Option(help: "Require this bearer token on every resource but /health (visible in `ps`: prefer --token-file).") var token: String?
    @Option(help: ArgumentHelp("Read the bearer token from the first line of this file.", valueName: "path")) var tokenFile: String?
    @Option(help: ArgumentHelp("An account that can sign in with POST /session: EMAIL:PASSWORD (repeatable; visible in `ps`: prefer --accounts-file).",
                               valueName: "email:password"))
    var account: [String] = []
    @Option(help: ArgumentHelp("Read accounts from this file, one EMAIL:PASSWORD a line (# starts a comment).", valueName: "path"))
    var accountsFile: String?
    @Option(help: ArgumentHelp("How long a signed-in session's token is valid, in seconds.", valueName: "seconds"))
    var sessionLifetime = 86_400.0
    @Option(help: ArgumentHelp("Close a connection idle for this many seconds (a half-sent request too).", valueName: "seconds"))
    var idleTimeout = 30.0
    @Option(help: ArgumentHelp("Close a connection whose request body and answer are not done this many seconds after its head (a trickled body).", valueName: "seconds"))
    var requestTimeout = 30.0
    @Option(help: ArgumentHelp("On SIGTERM or SIGINT, wait this many seconds for the requests in flight, then cut them (saying how many).", valueName: "seconds"))
    var shutdownGrace = 5.0
    @Option(help: ArgumentHelp("Keep the inbox and idempotency records in this SQLite file (default: in memory).", valueName: "path"))
    var data: String?
    @Option(help: ArgumentHelp("Load an inbox document ({\"inbox\":[…]}, as GET /inbox serves it) at start.", valueName: "file")) var seed: String?
    @Option(help: ArgumentHelp("Generate N realistic e-mails in threads at start.", valueName: "n")) var generate = 0
    @Option(help: "The sender address of messages posted to /messages.") var userEmail = "me@conn.example"
    @Option(help: "Refuse bodies larger than this many bytes (413).") var maxBodyBytes = 1024 * 1024
    // `.unconditional` so a negative skew can be written `--skew-ms -999`.
    @Option(parsing: .unconditional, help: ArgumentHelp("Shift every time the server reports (t2/t3, WebSocket, Date header) by MS (negative: behind).", valueName: "ms"))
    var skewMs: Int64 = 0
    @Option(help: ArgumentHelp("Wait MS before handling each request.", valueName: "ms")) var latencyMs = 0
    @Option(help: ArgumentHelp("Answer this share (0-1) of requests 500 or 503 with Retry-After.", valueName: "p")) var failRate = 0.0
    @Option(help: ArgumentHelp("Process this share (0-1) of requests, then close the connection unanswered.", valueName: "p"))
    var dropResponseRate = 0.0
    @Flag(help: "Answer every request with a 200 HTML login page, as a captive portal does.") var portal = false
    @Flag(help: "Send the start-up moment's Date header on every answer, as a caching proxy does.") var frozenDate = false
    @Flag(name: .shortAndLong, help: "Log every request on stderr.") var verbose = false

    /// A century in milliseconds: the most --skew-ms shifts the server's clock.
    static let maximumSkewMS: Int64 = 3_155_760_000_000

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a port (0-65535).") }
        guard (0...1).contains(failRate) else { throw ValidationError("--fail-rate \(failRate) must be between 0 and 1.") }
        guard (0...1).contains(dropResponseRate) else { throw ValidationError("--drop-response-rate \(dropResponseRate) must be between 0 and 1.") }
        guard latencyMs >= 0, generate >= 0, maxBodyBytes > 0 else {
            throw ValidationError("--latency-ms, --generate and --max-body-bytes must not be negative.")
        }
        if let token, token.isEmpty { throw ValidationError("--token must not be empty.") }
        if token != nil, tokenFile != nil { throw ValidationError("give the token with --token or --token-file, not both.") }
        guard sessionLifetime.isFinite, (1...31_536_000).contains(sessionLifetime) else {
            throw ValidationError("--session-lifetime \(sessionLifetime) must be between 1 and 31536000 seconds (a year).")
        }
        for entry in account { _ = try Self.parseAccount(entry, source: "--account") }
        guard idleTimeout.isFinite, (0.001...86_400).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout \(idleTimeout) must be between 0.001 and 86400 seconds.")
        }
        guard requestTimeout.isFinite, (0.001...86_400).contains(requestTimeout) else {
            throw ValidationError("--request-timeout \(requestTimeout) must be between 0.001 and 86400 seconds.")
        }
        guard shutdownGrace.isFinite, (0...3_600).contains(shutdownGrace) else {
            throw ValidationError("--shutdown-grace \(shutdownGrace) must be between 0 and 3600 seconds.")
        }
        // Past these, the server's arithmetic on times would overflow (a signal, not an error).
        guard latencyMs <= 3_600_000 else { throw ValidationError("--latency-ms \(latencyMs) is more than an hour (3600000).") }
        guard skewMs.magnitude <= Self.maximumSkewMS.magnitude else {
            throw ValidationError("--skew-ms \(skewMs) is more than a century (\(Self.maximumSkewMS) ms) either way.")
        }
        guard generate <= ServerOptions.maximumGenerated else {
            throw ValidationError("--generate \(generate) is more than the \(ServerOptions.maximumGenerated) e-mails it makes at most.")
        }
    }

    func run() async throws {
        var options = ServerOptions()
        options.host = host
        options.port = port
        options.token = try resolvedToken()
        options.accounts = try resolvedAccounts()
        options.sessionLifetime = .milliseconds(Int64((sessionLifetime * 1000).rounded()))
        options.idleTimeout = .milliseconds(Int64((idleTimeout * 1000).rounded()))
        options.requestTimeout = .milliseconds(Int64((requestTimeout * 1000).rounded()))
        options.shutdownGrace = .milliseconds(Int64((shutdownGrace * 1000).rounded()))
        options.dataPath = data
        options.seedFile = seed
        options.generateCount = generate
        options.userEmail = userEmail
        options.maxBodyBytes = maxBodyBytes
        options.faults.skewMS = skewMs
        options.faults.latencyMS = latencyMs
        options.faults.failRate = failRate
        options.faults.dropResponseRate = dropResponseRate
        options.faults.portal = portal
        options.faults.frozenDate = frozenDate

        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "conn-server")
        let server: ConnServer
        do {
            server = try ConnServer(options: options, logger: logger)
        } catch {
            FileHandle.standardError.write(Data("conn-server: error: \(error)\n".utf8))
            throw ExitCode(78)
        }
        let count = (try? server.store.count()) ?? 0
        let storage = options.dataPath ?? "memory"
        try await server.run { host, port in
            let url = host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
            // First line on stdout, flushed: tests and scripts wait for it.
            FileHandle.standardOutput.write(Data("listening on \(url)\n".utf8))
            logger.info("serving \(count) e-mails", metadata: ["url": "\(url)", "data": "\(storage)"])
        }
    }

    /// EMAIL:PASSWORD, checked: a valid address, a password that is not empty.
    static func parseAccount(_ text: String, source: String) throws -> (email: String, password: String) {
        guard let colon = text.firstIndex(of: ":") else {
            throw ValidationError("\(source) '\(text.prefix(60))' is not EMAIL:PASSWORD.")
        }
        let email = String(text[..<colon]).trimmingCharacters(in: .whitespaces), password = String(text[text.index(after: colon)...])
        guard EmailAddress.isValid(email) else { throw ValidationError("\(source): '\(email.prefix(60))' is not an e-mail address.") }
        guard !password.isEmpty else { throw ValidationError("\(source): the password of \(email) is empty.") }
        return (email, password)
    }

    /// --account entries and the lines of --accounts-file.
    func resolvedAccounts() throws -> [String: String] {
        var entries = account.map { ($0, "--account") }
        if let accountsFile {
            guard let text = try? String(contentsOfFile: accountsFile, encoding: .utf8) else {
                throw ValidationError("--accounts-file \(accountsFile) cannot be read.")
            }
            for (number, line) in Self.lines(of: text).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
                entries.append((trimmed, "--accounts-file \(accountsFile):\(number + 1)"))
            }
        }
        var accounts: [String: String] = [:]
        for (text, source) in entries {
            let (email, password) = try Self.parseAccount(text, source: source)
            accounts[email] = password
        }
        return accounts
    }

    /// A file's lines, cut at "\n" and at "\r\n": in Swift "\r\n" is one Character, so a file
    /// saved with CRLF line ends is never cut at "\n" alone. (conn's own `lines()` is in ConnCore,
    /// which the reference server does not link.)
    static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    }

    /// --token, else the first line of --token-file, else CONN_SERVER_TOKEN; nil when none is set.
    func resolvedToken() throws -> String? {
        if let token { return token }
        if let tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw ValidationError("--token-file \(tokenFile) cannot be read.")
            }
            let line = Self.lines(of: text).first.map(String.init) ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw ValidationError("--token-file \(tokenFile) holds no token on its first line.") }
            return trimmed
        }
        if let variable = ProcessInfo.processInfo.environment["CONN_SERVER_TOKEN"], !variable.isEmpty { return variable }
        return nil
    }
}
