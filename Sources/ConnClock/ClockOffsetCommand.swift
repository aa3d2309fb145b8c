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
            """,
            exitCodes: """
                0 measured; 69 the server or NTP server cannot be reached; 75 the bound is wider \
                than --max-uncertainty, or the server asks to try later (5xx, 429); 77 the token \
                was refused; 65 the answers are unusable (no Date header, a cached Date, not the \
                time resource)
                """,
            examples: [
                .init("conn clock-offset", "The configured server's offset in ms, with its error bound."),
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

    @Option(name: .customLong("max-uncertainty"), help: ArgumentHelp("Exit 75 when the bound is wider than this (ms).", valueName: "ms"))
    var maxUncertainty: Double?

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
        let measurement = try await ClockOffsetMeasurement(
            context: context.replacing(configuration: try way.applied(to: context.configuration)), method: method, samples: samples, interval: interval.duration,
            url: url.flatMap(URL.init(string:)), ntpServer: ntpServer, precisionMS: precision
        ).run()
        let estimate = measurement.estimate
        try StoredOffset(offsetMs: estimate.offsetMS, uncertaintyMs: estimate.uncertaintyMS, method: measurement.method.rawValue,
                         source: measurement.source, measuredAt: Date()).save(to: database)
        let report = ClockOffsetReport(
            offsetMs: estimate.offsetMS, uncertaintyMs: estimate.uncertaintyMS, rttMs: estimate.rttMS, jitterMs: estimate.jitterMS,
            method: measurement.method.rawValue, source: measurement.source, samplesUsed: estimate.used, samplesTotal: estimate.total,
            requests: measurement.requests, measuredAt: Date(),
            samples: context.verbosity == .verbose
                ? measurement.samples.map { .init(t1: $0.t1, t2: $0.t2, t3: $0.t3, t4: $0.t4, offsetMs: $0.offset, delayMs: $0.delay) } : nil)
        try context.printer.emit(report)
        if let maxUncertainty, estimate.uncertaintyMS > maxUncertainty {
            throw ConnError.temporary(.uncertaintyTooWide, "the bound ±\(ClockOffsetReport.number(estimate.uncertaintyMS)) ms is wider than --max-uncertainty \(maxUncertainty) ms",
                                      hint: "Take more samples, or measure when the network is quieter.")
        }
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
