import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnProtocol
import Foundation

extension ClockMethod: NamedValueArgument {}

/// `conn clock-offset`: how far the back end's clock is from this device's, with an error bound.
public struct ClockOffsetCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "clock-offset",
        abstract: "Measure the back end's clock offset in ms, with an honest error bound.",
        discussion: HelpText.discussion(
            """
            The offset is back end minus device: positive when the back end is ahead. After one \
            discarded warm-up exchange, --samples exchanges are taken --interval apart; each gives \
            θ = ((t2−t1)+(t3−t4))/2 and δ = (t4−t1)−(t3−t2); outliers (δ more than twice the \
            minimum) are dropped and the minimum-delay sample's θ is reported, within δmin/2 plus \
            half the timestamps' resolution. The last offset is kept, so --convert works offline.

            --method auto uses json, and the Date header only when the server has no time \
            resource (a 404 or an answer that is not a time): a refused token or a server that \
            asks to try later ends the command as with json.

            --chrony-socket PATH hands each estimate to chronyd as one sample of its SOCK \
            reference clock (chrony.conf: refclock SOCK PATH refid CONN poll 4 filter 8 \
            precision 1e-2): the offset back end minus this machine in seconds, for the local \
            time the estimate is for. The bound in use is --max-uncertainty: a wider estimate is \
            not sent (without it, every estimate is). Set chrony's precision near the bound conn \
            reports on this network (1e-3 on a LAN, 1e-2 over a WAN) and filter to how many \
            estimates chronyd takes the median of (8 at --every 30s: four minutes). conn agent \
            does the same for as long as it runs with chronySocket in the configuration.
            """,
            exitCodes: """
                0 measured (with --every, stopped cleanly is 130 or 143); 64 a bad option (a \
                --chrony-socket path that is not a socket); 69 the server or NTP server cannot be \
                reached, or chronyd does not listen at --chrony-socket; 75 the bound is wider than \
                --max-uncertainty (with --chrony-socket: not sent), or the server asks to try later \
                (5xx, 429); 77 the token was refused; 65 the answers are unusable (no Date header, \
                a cached Date, not the time resource)
                """,
            examples: [
                .init("conn clock-offset", "The configured server's offset in ms, with its error bound."),
                .init("conn clock-offset --chrony-socket /run/chrony/conn.sock --every 30s --max-uncertainty 20",
                      "Feed chronyd's `refclock SOCK /run/chrony/conn.sock` an estimate every 30 s; wider ones are not sent."),
                .init("conn clock-offset --method sntp --ntp-server pool.ntp.org", "This device against an NTP server."),
                .init("conn clock-offset --convert 2026-11-23T10:00:00.432Z", "A back-end time as this device's time, with the last offset (works offline)."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Option(help: "How to measure: auto, json (/time), ws (WebSocket ping/pong), http-date (any HTTP server's Date header), sntp.")
    var method: ClockMethod = .auto

    @Option(help: "Exchanges to take after the warm-up (http-date: the most requests to make).")
    var samples = 8

    @Option(help: ArgumentHelp("Time between exchanges: 100ms, 1s, or 0 for back to back.", valueName: "duration"))
    var interval: NonNegativeDuration = "100ms"

    @Option(help: ArgumentHelp("For http-date (and auto, which then uses http-date): the URL whose Date header to read (default: the server's health resource); other methods refuse it.", valueName: "url"))
    var url: String?

    @Option(name: .customLong("ntp-server"), help: ArgumentHelp("For sntp: the NTP server, host or host:port.", valueName: "host"))
    var ntpServer = "pool.ntp.org"

    @Option(help: ArgumentHelp("For http-date: stop once the bound is this narrow (ms).", valueName: "ms"))
    var precision = 5.0

    @Option(name: .customLong("max-uncertainty"), help: ArgumentHelp("Exit 75 when the bound is wider than this (ms); with --chrony-socket, such an estimate is not sent.", valueName: "ms"))
    var maxUncertainty: Double?

    @Option(name: .customLong("chrony-socket"),
            help: ArgumentHelp("Send each estimate to chronyd as a sample of its SOCK reference clock (chrony.conf: refclock SOCK PATH): the offset, back end minus this machine, in seconds.", valueName: "path"),
            completion: .file())
    var chronySocket: String?

    @Option(help: ArgumentHelp("With --chrony-socket: measure and send again every DURATION until SIGINT or SIGTERM (5s, 1m).", valueName: "duration"))
    var every: PositiveDuration?

    @OptionGroup(title: "Way out") var way: EgressOptions

    @Option(help: ArgumentHelp("Convert a back-end time (ms since the epoch, or ISO 8601) to this device's time, with the last measured offset.", valueName: "timestamp"))
    var convert: String?

    public init() {}

    public func validate() throws {
        guard (1...100).contains(samples) else { throw ValidationError("--samples must be between 1 and 100.") }
        guard precision > 0 else { throw ValidationError("--precision must be positive.") }
        if let maxUncertainty, maxUncertainty <= 0 { throw ValidationError("--max-uncertainty must be positive.") }
        if ClockOffsetMeasurement.hostAndPort(ntpServer, defaultPort: 123) == nil {
            throw ValidationError("--ntp-server '\(ntpServer)' is not host or host:port with a port from 1 to 65535, e.g. pool.ntp.org or 127.0.0.1:1123.")
        }
        if let url, let problem = BackEndEndpoint.serverURLProblem(url) { throw ValidationError("--url '\(URLUserinfo.redacted(url))' \(problem).") }
        if url != nil, ![.auto, .httpDate].contains(method) {
            throw ValidationError("--url is read by --method http-date (and auto, which then uses it); --method \(method.rawValue) measures against \(method == .sntp ? "--ntp-server" : "the configured server") and would ignore it.")
        }
        if every != nil, chronySocket == nil { throw ValidationError("--every repeats what --chrony-socket sends: give --chrony-socket PATH too.") }
        if chronySocket != nil, convert != nil { throw ValidationError("--convert reads the stored offset; --chrony-socket measures: give one of them.") }
        if let convert, Self.parseTimestamp(convert) == nil {
            throw ValidationError("--convert '\(convert)' is neither milliseconds since the epoch nor an ISO 8601 time from 1970 to 9999, e.g. 1795380311432 or 2026-11-22T20:01:02.345Z.")
        }
    }

    public func run(in context: CommandContext) async throws {
        let database = try context.openDatabase()
        if let convert {
            let conversion = try Self.convert(convert, database: database, server: context.configuration.backEnd?.baseURL)
            try context.printer.emit(conversion)
            if context.configuration.format == .text { context.printer.note(conversion.derivation) }
            return
        }
        let egress = try way.egress()
        if !egress.isAny, method == .httpDate || (method == .auto && url != nil) {
            throw ConnError.usage("--interface, -4 and -6 apply to --method json, ws and sntp; http-date goes through conn's HTTP client, which cannot be bound to an interface",
                                  hint: "Use --method json (the server's /time) or sntp with them.")
        }
        let measuring = context.replacing(configuration: try way.applied(to: context.configuration))
        if let chronySocket {
            try await feedChrony(ChronySocket(path: chronySocket), context: context, measuring: measuring, database: database)
            return
        }
        let measurement = try await measure(measuring)
        let estimate = measurement.estimate
        try Self.store(measurement, at: Date(), in: database)
        let report = ClockOffsetReport(
            offsetMs: estimate.offsetMS, uncertaintyMs: estimate.uncertaintyMS, rttMs: estimate.rttMS, jitterMs: estimate.jitterMS,
            method: measurement.method.rawValue, source: measurement.source, samplesUsed: estimate.used, samplesTotal: estimate.total,
            requests: measurement.requests, measuredAt: Date(),
            samples: context.verbosity == .verbose
                ? measurement.samples.map { .init(t1: $0.t1, t2: $0.t2, t3: $0.t3, t4: $0.t4, offsetMs: $0.offset, delayMs: $0.delay) } : nil)
        try context.printer.emit(report)
        if let tooWide = tooWide(estimate, then: "") { throw tooWide }
    }

    /// The error of an estimate whose bound is wider than --max-uncertainty (`then` ends its
    /// message), or nil.
    private func tooWide(_ estimate: ClockEstimate, then: String) -> ConnError? {
        guard let maxUncertainty, estimate.uncertaintyMS > maxUncertainty else { return nil }
        return .temporary(.uncertaintyTooWide, "the bound ±\(ClockOffsetReport.number(estimate.uncertaintyMS)) ms is wider than --max-uncertainty \(maxUncertainty) ms\(then)",
                          hint: "Take more samples, or measure when the network is quieter.")
    }

    /// Keeps the estimate for --convert, the agent's metrics and the REPL.
    private static func store(_ measurement: ClockOffsetMeasurement.Result, at time: Date, in database: LocalDatabase) throws {
        try StoredOffset(offsetMs: measurement.estimate.offsetMS, uncertaintyMs: measurement.estimate.uncertaintyMS, method: measurement.method.rawValue,
                         source: measurement.source, measuredAt: time).save(to: database)
    }

    private func measure(_ context: CommandContext) async throws -> ClockOffsetMeasurement.Result {
        try await ClockOffsetMeasurement(
            context: context, method: method, samples: samples, interval: interval.duration,
            url: url.flatMap(URL.init(string:)), ntpServer: ntpServer, precisionMS: precision
        ).run()
    }

    /// Measures and hands each estimate to chronyd — once, or every --every until SIGINT or
    /// SIGTERM (130, 143, after the sample in hand). An estimate wider than --max-uncertainty is
    /// withheld, so a bad network never steers the clock; chronyd not listening is said once
    /// (until it listens again) and tried again at the next estimate.
    private func feedChrony(_ socket: ChronySocket, context: CommandContext, measuring: CommandContext, database: LocalDatabase) async throws {
        if ChronySocket.isOtherThanSocket(socket.path) {
            throw ConnError.usage("--chrony-socket \(socket.path) is not a socket", hint: ChronySocket.pathHint)
        }
        let stopped = StopSignal(installing: every != nil && !CommandSession.isEmbedded)
        defer { stopped.remove() }
        var saidAbsent = false, saidNoEstimate = false
        while true {
            let measurement: ClockOffsetMeasurement.Result
            do {
                measurement = try await measure(measuring)
            } catch let error as ConnError where every != nil {
                // Said once until an estimate comes again: nothing is sent meanwhile.
                if !saidNoEstimate {
                    context.printer.warning("no estimate, nothing sent to chronyd (\(error.message)); trying again every \(TimeFormatting.duration(every!.duration))")
                }
                saidNoEstimate = true
                if await stopped.sleep(every!.duration) { break }
                continue
            }
            saidNoEstimate = false
            let estimate = measurement.estimate
            let at = Date()
            try Self.store(measurement, at: at, in: database)
            // What keeps the estimate from chronyd: the error a single run ends with.
            var refusal: ConnError?
            if let tooWide = tooWide(estimate, then: ": not sent") {
                refusal = tooWide
                context.printer.warning(tooWide.message)
            } else if let absent = socket.send(offsetSeconds: estimate.offsetMS / 1000, at: at) {
                refusal = .unavailable(.chronyUnavailable, absent, hint: "Start chronyd with `refclock SOCK \(socket.path)` in chrony.conf.")
                if !saidAbsent, every != nil { context.printer.warning(absent + "; trying again at each estimate") }
                saidAbsent = true
            } else {
                saidAbsent = false
            }
            try context.printer.emitLine(ChronySampleReport(at: at, offsetMs: estimate.offsetMS, uncertaintyMs: estimate.uncertaintyMS, method: measurement.method.rawValue,
                                                            socket: socket.path, sent: refusal == nil, reason: refusal?.message))
            if every == nil, let refusal { throw refusal }
            guard let every, !(await stopped.sleep(every.duration)) else { break }
        }
        if let signal = stopped.received { context.setExitCode(128 + signal) }
    }

    /// Converts a back-end timestamp with the stored offset: device = back end − offset.
    /// The offset is the configured server's own (with no server configured, the latest of any).
    static func convert(_ text: String, database: LocalDatabase, server: URL?) throws -> ConversionReport {
        let stored = try server.map { try StoredOffset.load(from: database, for: $0) } ?? StoredOffset.load(from: database)
        guard let stored else {
            let whose = server.flatMap { Origin($0)?.description }.map { " for \($0)" } ?? ""
            throw ConnError.unavailable(.noOffset, "no clock offset has been measured yet\(whose)",
                                        hint: "Run `conn clock-offset` once while the server is reachable.")
        }
        guard let backEndTime = parseTimestamp(text) else {
            throw ConnError.usage("--convert '\(text)' is neither milliseconds since the epoch nor an ISO 8601 time",
                                  hint: "Examples: 1795380311432, 2026-11-22T20:01:02.345Z")
        }
        let state = ConnectionState.connected(backEndTimeOffsetMs: Int(stored.offsetMs.rounded()))
        let deviceTime = state.deviceDate(for: backEndTime)!
        return ConversionReport(backEndTime: backEndTime, deviceTime: deviceTime, offsetMs: stored.offsetMs, uncertaintyMs: stored.uncertaintyMs,
                                offsetMeasuredAt: stored.measuredAt, offsetAgeSeconds: Date().timeIntervalSince(stored.measuredAt), method: stored.method,
                                offsetOf: stored.owner)
    }

    static func parseTimestamp(_ text: String) -> Date? {
        let trimmed = text.trimmingBlanks()
        let date = Double(trimmed).map { Date(timeIntervalSince1970: $0 / 1000) } ?? JSONOutput.date(fromTimestamp: trimmed)
        // Within what a back end may send (WireTime): 1970 to the year 9999.
        guard let date, WireTime.isPlausible(date.timeIntervalSince1970 * 1000) else { return nil }
        return date
    }
}
