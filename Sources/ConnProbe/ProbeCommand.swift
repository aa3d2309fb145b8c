import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn probe`: is the server / a host / the internet reachable, and if not, which layer fails.
public struct ProbeCommand: ConnCommand, TrailingCommandAccepting, PrometheusOutputCommand {
    public static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Tell what is reachable and, if not, which layer fails.",
        discussion: HelpText.discussion(
            """
            With no target, probes the configured server's health resource (or, with no server \
            configured, the internet). A target is host (port 443), host:port, [IPv6]:port or an \
            http(s) URL. Each target climbs a ladder — DNS, route and interface, TCP, TLS, HTTP — \
            and the first rung that fails is the verdict: nxdomain, noRoute, noCarrier (the route's \
            interface has no link), refused (the host is up, nothing listens), timeout, tlsError, \
            httpStatus, unexpectedBody, portal (a sign-in page answers for the server, or its health \
            resource redirects to another site), redirected (a URL redirects to another origin; \
            redirects within one are followed). Through a proxy (--proxy, http_proxy, https_proxy, \
            all_proxy; see --noproxy) DNS, route and TCP are the proxy's, a proxyTls rung follows \
            for an https:// one (TLS to the proxy, see --proxy-cacert), then a proxy rung (CONNECT or \
            the SOCKS5 handshake; an http:// URL through an HTTP proxy is forwarded in absolute form, \
            as curl sends it), and its verdicts are proxyUnreachable, proxyAuthRequired and \
            proxyRefused; what the proxy says of the target (squid's 503 ERR_CONNECT_FAIL, a SOCKS5 \
            reply 5) is the target's verdict (refused, timeout, nxdomain, noRoute, or unreachable \
            when the proxy does not say why). --interface binds every \
            connection to one interface (or local address), -4/-6 to one family; \
            --each-interface probes over every usable interface at once. A name's addresses that \
            the way out can reach are raced as Happy Eyeballs does (RFC 8305: families \
            alternating, the next after 250 ms). The state \
            they add up to — with --internet, what the internet check found too — ends the text \
            when it is not online (state: serverUnreachable (refused: …)), and comes first in the \
            JSON: state, reason, failingTarget, interface, ipv4, ipv6; the exit status follows it. \
            Within one run, plain-http URLs \
            on the same host and port share kept-alive connections (the tcp rung says "reused"); \
            each answer is still judged on its own. In text to a pipe or a file, each target's \
            line is printed in the input's order as soon as the targets before it are done \
            (--json and --wait print the whole report at the end).

            With -- CMD, runs CMD once everything is reachable (as wait-for-it does) and exits \
            with its code.
            """,
            exitCodes: """
                0 the state is online (every target reachable; with --internet, the internet too); \
                69 it is not (a target unreachable, the internet limited, DNS broken, offline); 75 --wait ran out; 64 a bad \
                target on the command line; 65 a bad target in --file (or more than 64 MiB of them); \
                66 the --file cannot be read
                """,
            examples: [
                .init("conn probe", "The configured server's health resource, every rung timed."),
                .init("conn probe db.internal:5432 https://example.com/ -v", "Two targets; -v shows every rung of the ladder."),
                .init("conn probe --wait 2m db.internal:5432 -- ./migrate", "Run ./migrate once the database accepts connections."),
                .init("conn probe --internet --json | jq .state", "Online, offline, serverUnreachable or portal, for a script."),
                .init("conn probe --format prometheus https://api.example.com/ > conn.prom", "The state and each target's metrics for node_exporter's textfile collector."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Argument(help: "Targets: host, host:port, [v6]:port or http(s)://… (default: the configured server).")
    var targets: [String] = []

    @Option(name: .long, help: ArgumentHelp("Read targets from a file, one per line ('-' for stdin; # starts a comment).", valueName: "path"),
            completion: .file())
    var file: String?

    @Flag(help: "Check the internet (plain-HTTP endpoints with a known answer) instead of, or as well as, the targets.")
    var internet = false

    @Option(name: .customLong("internet-url"), help: ArgumentHelp("An endpoint of the internet check: URL, URL=STATUS or URL=STATUS:TEXT (repeatable).", valueName: "url"))
    var internetURLs: [String] = []

    @Option(help: ArgumentHelp("Keep probing until every target is reachable or this time is up: 5s, 2m, or seconds (more than 0).", valueName: "duration"))
    var wait: PositiveDuration?

    @Option(help: "How many targets to probe at once.")
    var concurrency = 32

    @Option(help: ArgumentHelp("Probe this many rounds and sum each target up as ping does (loss, min/avg/median/p95/max, stddev, jitter as mtr reports it); 0: until Ctrl-C.", valueName: "n"))
    var count: Int?

    @Option(help: ArgumentHelp("How often --count starts a round: 1s, 500ms, or seconds; 0: each round as soon as the last ends. Under 10ms needs --flood.", valueName: "duration"))
    var interval: NonNegativeDuration = "1s"

    @Flag(help: "Allow --count an --interval under 10ms (ping's rule: that many requests a second is a load test, not a probe).")
    var flood = false

    @Flag(name: .customLong("all-attempts"), help: "With --count --json: every round's results too.")
    var allAttempts = false

    @Option(name: .customLong("expect-status"), help: ArgumentHelp("HTTP statuses that count as reachable, taken as they are (default: 2xx and 304; a redirect is followed within its origin, and one to another origin is redirected, or portal for the server).", valueName: "code"))
    var expectStatus: [Int] = []

    @Option(name: .customLong("expect-body"), help: ArgumentHelp("Text the HTTP body must contain.", valueName: "text"))
    var expectBody: String?

    @OptionGroup(title: "Way out") var way: EgressOptions

    @Flag(name: .customLong("each-interface"),
          help: "Probe over every usable interface at once (up, with an address, not loopback), each bound to its interface, and print a table: interface, kind, metered, family, verdict, timings.")
    var eachInterface = false

    /// The command after `--`, run once everything is reachable (see TrailingCommandAccepting).
    public var trailingCommand: [String] = []

    private enum CodingKeys: String, CodingKey {
        case global, targets, file, internet, internetURLs, wait, concurrency, count, interval, flood, allAttempts, expectStatus, expectBody
        case way, eachInterface
    }

    public init() {}

    /// The shortest --interval without --flood (ping's 10 ms for an unprivileged user).
    static let floodInterval: Duration = .milliseconds(10)

    public func validate() throws {
        guard (1...1024).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 1024.") }
        for code in expectStatus where !(100...599).contains(code) {
            throw ValidationError("--expect-status \(code) is not an HTTP status (100-599).")
        }
        if let count {
            guard (0...1_000_000).contains(count) else { throw ValidationError("--count \(count) is not a number of rounds (0-1000000; 0: until Ctrl-C).") }
            if wait != nil { throw ValidationError("--count and --wait ask two things: measure rounds, or wait until reachable; give one.") }
            if !trailingCommand.isEmpty { throw ValidationError("--count measures; it runs no command after `--`.") }
            if interval.duration > .zero, interval.duration < Self.floodInterval, !flood {
                throw ValidationError("--interval \(interval) starts more than 100 rounds a second, which floods the target; add --flood if you mean it, or use 0 for one round after another.")
            }
        } else if allAttempts {
            throw ValidationError("--all-attempts goes with --count.")
        } else if flood {
            throw ValidationError("--flood goes with --count.")
        }
        if eachInterface {
            if way.interface != nil { throw ValidationError("--each-interface probes over every interface; --interface names one: give one of them.") }
            if count != nil || wait != nil { throw ValidationError("--each-interface looks once over each interface; it does not go with --count or --wait.") }
            if internet { throw ValidationError("--each-interface probes targets (default: the server), not the internet check.") }
            if !trailingCommand.isEmpty { throw ValidationError("--each-interface reports; it runs no command after `--`.") }
        }
    }

    public func run(in context: CommandContext) async throws {
        // A few targets: their tasks and their channels on one event loop, no hand-off between
        // threads for each answer (probe URL 23.7 -> 19.6 ms). Many: the pool's threads, every
        // core (1,000 targets on one loop took 119 ms against 104).
        let few = file == nil && targets.count <= ProbeRunner.oneLoopLimit
        try await withTaskExecutorPreference(few ? EventLoopTaskExecutor() : nil) { try await look(in: context) }
    }

    private func look(in context: CommandContext) async throws {
        let configuration = try way.applied(to: context.configuration)
        var probeTargets = try targets.map(ProbeTarget.parse)
        if let file { probeTargets += try Self.readTargets(file) }
        let endpoints = try internetURLs.isEmpty ? InternetEndpoint.defaults : internetURLs.map(InternetEndpoint.parse)
        var checkInternet = internet || !internetURLs.isEmpty
        if probeTargets.isEmpty && !checkInternet {
            if let backEnd = configuration.backEnd {
                probeTargets = [.server(backEnd)]
            } else {
                checkInternet = true
                context.printer.note("no server is configured: checking the internet (pass a target or --server to probe one)")
            }
        }
        let deadline = wait.map { ContinuousClock.now + $0.duration }

        let expectation = Prober.Expectation(statuses: expectStatus.isEmpty ? nil : Set(expectStatus), bodyContains: expectBody)
        try ConnectivityCheck.checkProxies(configuration.proxy, for: probeTargets + (checkInternet ? endpoints.map(\.target) : []))
        if eachInterface {
            guard configuration.format != .prometheus else {
                throw ConnError.usage("--each-interface prints a table or JSON; --format prometheus writes one look", hint: "Use --json.")
            }
            guard !probeTargets.isEmpty else {
                throw ConnError.usage("--each-interface needs a target, or a configured server", hint: "Pass one, e.g. conn probe --each-interface https://example.com/health.")
            }
            return try await EachInterfaceProbe(targets: probeTargets, configuration: configuration, expectation: expectation,
                                                concurrency: concurrency).run(in: context)
        }
        let prober = Prober(timeout: configuration.timeout, trust: configuration.serverTrust,
                            expectation: expectation, credentials: configuration.credentials, proxies: configuration.proxy,
                            egress: configuration.egress)
        let runner = ProbeRunner(prober: prober, concurrency: concurrency)
        if let count {
            guard configuration.format != .prometheus else {
                throw ConnError.usage("--count sums rounds up in text or JSON; --format prometheus writes one look", hint: "Leave out --count, or use --json.")
            }
            return try await ProbeSeries(runner: runner, targets: probeTargets, internet: checkInternet ? endpoints : nil, rounds: count,
                                         interval: interval.duration, keepAttempts: allAttempts).run(in: context)
        }

        var attempts = 0
        // Between tries: 250 ms, doubling up to 5 s.
        let backoff = Backoff(base: .milliseconds(250), cap: .seconds(5))
        var report: ProbeReport
        // Progress for many targets (a --file), on a terminal: done/total as they finish.
        let line = ProgressLine(context)
        defer { line.finish() }
        // Between tries of --wait, on a terminal: a turning mark with what is awaited.
        let spinner = Spinner(context, limit: wait?.duration)
        defer { spinner.stop() }
        let total = probeTargets.count
        // Text to a pipe, a file or a terminal without a pager, and no --wait to try again: each
        // target's line is printed as soon as those before it are done, and let go.
        let printsAsItGoes = deadline == nil && context.printer.printsTextAsItComes
        var done: (@Sendable (Int) -> Void)?
        if line.isEnabled, total > 1, !(printsAsItGoes && context.terminal.standardOutputIsTerminal) {
            done = { @Sendable count in line.update("probing: \(count)/\(total) done") }
        }
        while true {
            attempts += 1
            var connectivity: InternetVerdict?
            if checkInternet {
                let (verdict, checks) = await InternetCheck(prober: prober).run(endpoints)
                connectivity = verdict
                // -v: a line per check URL and its rungs, which the verdict sums up.
                if context.verbosity == .verbose {
                    for check in checks { context.printer.note(Self.stepLine("internet check", check)) }
                    for endpoint in endpoints where !checks.contains(where: { $0.target == endpoint.url.absoluteString }) {
                        context.printer.note("internet check: \(endpoint.url.absoluteString): no answer \(TimeFormatting.duration(InternetCheck.graceAfterAnswer)) after the first; not waited for (its family stays unknown)")
                    }
                }
            }
            let results: [ProbeResult]
            if printsAsItGoes {
                results = await Self.printAsTheyFinish(probeTargets, runner: runner, connectivity: connectivity, done: done, in: context)
            } else {
                results = await runner.probeAll(probeTargets, done: done)
                ProbeJournal.shared.record(results)
            }
            line.finish()
            let internetOK = connectivity.map { $0.state == .online } ?? true
            // The internet check runs only when asked for (or as the only check): it decides too.
            let snapshot = ConnectivityCheck.Snapshot(judging: results, internet: connectivity, classifier: prober.classifier,
                                                      internetRequired: checkInternet)
            // One verdict: the text, the JSON and the exit status all follow the state.
            let state = snapshot.networkState
            let allReachable = state.state == .online
            report = ProbeReport(state: state, results: results, allReachable: allReachable, attempts: deadline == nil ? nil : attempts,
                                 connectivity: connectivity, showLadder: context.verbosity == .verbose)
            report.linesPrinted = printsAsItGoes
            guard let deadline, !allReachable else { break }
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { break }
            let pause = min(backoff.ceiling(afterAttempt: attempts), remaining)
            let failing = results.filter { !$0.reachable }.map { "\($0.target) (\($0.verdict))" }
                + (internetOK ? [] : ["internet (\(connectivity!.state.name))"])
            if spinner.isEnabled {
                spinner.show("waiting: \(failing.joined(separator: ", ")); try \(attempts + 1) next")
            } else {
                context.printer.note("waiting: \(failing.joined(separator: ", ")); next try in \(TimeFormatting.duration(milliseconds: pause.milliseconds))")
            }
            try await Task.sleep(for: pause)
        }
        spinner.stop()
        try context.printer.emit(report)

        if !report.allReachable {
            if deadline != nil {
                throw ConnError.temporary(.waitTimedOut, "still unreachable when --wait \(wait!) ran out, after \(attempts) attempts")
            }
            // The report says which target failed; the exit code says that one did.
            context.setExitCode(ExitStatus.unavailable.rawValue)
            return
        }
        if !trailingCommand.isEmpty {
            // exec would replace the REPL itself.
            guard !CommandSession.isEmbedded else {
                throw ConnError.usage("`probe … -- COMMAND` replaces the process, so it cannot run inside `conn repl`", hint: "Run it from your shell.")
            }
            try CommandExecutor.exec(trailingCommand)
        }
    }

    /// Probes the targets and prints each one's line as soon as those before it are done, in
    /// the targets' order; returns only the results the verdict reads (`ProbeWitnesses`), so
    /// 10,000 targets cost the memory of the few that finished out of turn.
    private static func printAsTheyFinish(_ targets: [ProbeTarget], runner: ProbeRunner, connectivity: InternetVerdict?,
                                          done: (@Sendable (Int) -> Void)?, in context: CommandContext) async -> [ProbeResult] {
        let style = context.printer.outputStyle
        let showLadder = context.verbosity == .verbose
        let width = ProbeReport.nameWidth(targets.map(\.input))
        let header = ProbeReport.header(connectivity, style: style)
        if !header.isEmpty { context.printer.write(header) }
        var witnesses = ProbeWitnesses()
        await runner.probeEach(targets, done: done) { released in
            ProbeJournal.shared.record(released)
            var text = ""
            for result in released {
                ProbeReport.appendLine(result, name: TerminalSanitizer.sanitize(result.target, keepNewlines: false), width: width,
                                       showLadder: showLadder, style: style, to: &text)
                witnesses.add(result)
            }
            context.printer.write(text)
        }
        return witnesses.results
    }

    /// "internet check: URL: reachable in 12 ms (dns 1.0 ms ok, tcp 0.4 ms ok, http 3.1 ms ok)".
    static func stepLine(_ what: String, _ result: ProbeResult) -> String {
        let rungs = result.rungs.map { rung in
            "\(rung.name)\(rung.ms.map { " " + TimeFormatting.duration(milliseconds: $0) } ?? "") \(rung.ok ? "ok" : "failed: \(rung.detail)")"
        }.joined(separator: ", ")
        return "\(what): \(result.url ?? result.target): \(result.verdict) in \(TimeFormatting.duration(milliseconds: result.totalMs))"
            + (rungs.isEmpty ? "" : " (\(rungs))")
    }

    /// Targets from a file, one per line; blank lines and # comments skipped. A bad line is named.
    /// Far more than any list of targets (a million host:port lines fit).
    static let maximumFileBytes = 64 << 20

    static func readTargets(_ path: String) throws -> [ProbeTarget] {
        guard let data = try InputFile.read(path == "-" ? nil : path, option: "--file", limit: maximumFileBytes) else {
            throw ConnError.dataError(.fileTooLarge, "the targets in \(path == "-" ? "standard input" : path) are more than \(maximumFileBytes >> 20) MiB",
                                      hint: "Split the list, or probe fewer targets at once.")
        }
        // Lines and comments are cut on bytes: '\n' and '#' never occur inside a multi-byte
        // UTF-8 sequence, and a "\r\n" line end (one Character) is cut too, its '\r' trimmed.
        var targets: [ProbeTarget] = []
        for (index, raw) in [UInt8](data).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = String(String(decoding: raw.prefix { $0 != UInt8(ascii: "#") }, as: UTF8.self).trimmingWhitespace())
            if line.isEmpty { continue }
            do {
                targets.append(try ProbeTarget.parse(line))
            } catch let error as ConnError {
                throw ConnError(code: .badTarget, message: "\(path == "-" ? "stdin" : path):\(index + 1): \(error.message)", hint: error.hint, exitStatus: .dataError)
            }
        }
        if targets.isEmpty {
            throw ConnError(code: .noTargets, message: "target file \(path == "-" ? "stdin" : path) has no targets",
                            hint: "Put one target per line: host:port or a URL.", exitStatus: .dataError)
        }
        return targets
    }
}
