import ConnCommandKit
import ConnCore
import ConnProtocol
import Foundation

/// Runs the chosen method (auto picks one) and returns its estimate.
struct ClockOffsetMeasurement {
    let context: CommandContext
    let method: ClockMethod
    let samples: Int
    let interval: Duration
    let url: URL?
    let ntpServer: String
    let precisionMS: Double

    struct Result {
        var estimate: ClockEstimate
        var method: ClockMethod
        var source: String
        var samples: [ClockSample]
        var requests: Int
    }

    func run() async throws -> Result {
        let configuration = context.configuration
        let clock = SampleClock()
        switch method {
        case .sntp:
            guard let (host, port) = Self.hostAndPort(ntpServer, defaultPort: 123) else {
                throw ConnError.usage("--ntp-server '\(ntpServer)' is not host or host:port (port 1-65535)")
            }
            // NTP is UDP, which no HTTP proxy (nor this SOCKS5 client) carries: said, not hidden.
            if let url = URL(string: "http://\(host.contains(":") ? "[\(host)]" : host)/"), let server = try? configuration.proxy.decision(for: url).server {
                context.printer.note("sntp goes to \(host):\(port) directly: the proxy \(server.display) carries TCP, and NTP is UDP")
            }
            let taken = try await SNTPSampler(host: host, port: port, clock: clock, timeout: configuration.timeout, egress: configuration.egress)
                .samples(samples, interval: interval)
            return try finish(taken, method: .sntp, source: "ntp://\(host):\(port)", resolution: 0.001)
        case .ws:
            let backEnd = try context.requireBackEnd()
            let wsURL = backEnd.url(for: .ws)
            let taken = try await WebSocketTimeSampler(url: wsURL, credentials: configuration.credentials, clock: clock, timeout: configuration.timeout,
                                                       trust: configuration.serverTrust, egress: configuration.egress, proxy: try proxy(for: wsURL),
                                                       logger: context.logger)
                .samples(samples, interval: interval)
            return try finish(taken, method: .ws, source: wsURL.absoluteString, resolution: WireTime.resolutionMS(of: taken.flatMap { [$0.t2, $0.t3] }))
        case .httpDate:
            return try await httpDate(clock)
        case .auto where url != nil:
            // A URL given is a URL to read: only the Date header method reads one.
            return try await httpDate(clock)
        case .json, .auto:
            let timeURL = try context.requireBackEnd().url(for: .time)
            do {
                let taken = try await JSONTimeSampler(url: timeURL, credentials: configuration.credentials, trust: configuration.serverTrust,
                                                      timeout: configuration.timeout, clock: clock, egress: configuration.egress,
                                                      proxy: try proxy(for: timeURL))
                    .samples(samples, interval: interval)
                return try finish(taken, method: .json, source: timeURL.absoluteString, resolution: WireTime.resolutionMS(of: taken.flatMap { [$0.t2, $0.t3] }))
            } catch let error as ConnError where method == .auto && configuration.egress.isAny && (error.code == .httpStatus || error.code == .badTimeAnswer) {
                // Only a server without a time resource, and only when no way out is bound
                // (http-date cannot be bound: auto then stays with json). Refused credentials (77) and a server
                // that asks to try later (75) are answers about this server, not about /time,
                // and the Date header of /health (which needs no token) would hide them.
                context.printer.note("\(timeURL.absoluteString) offers no time resource; measuring with the Date header instead")
                return try await httpDate(clock)
            }
        }
    }

    /// The proxy the settings give for `url`, if any.
    private func proxy(for url: URL) throws -> ProxyServer? {
        try context.configuration.proxy.decision(for: url).server
    }

    private func httpDate(_ clock: SampleClock) async throws -> Result {
        let target = try url ?? context.requireBackEnd().url(for: .health)
        let outcome = try await HTTPTransport.with(configuration: context.configuration, logger: context.logger) { transport in
            try await HTTPDateEstimator(transport: transport, url: target, clock: clock, maxRequests: max(samples, 2),
                                        precisionMS: precisionMS).estimate()
        }
        return Result(estimate: outcome.estimate, method: .httpDate, source: target.absoluteString, samples: [], requests: outcome.requests)
    }

    private func finish(_ taken: [ClockSample], method: ClockMethod, source: String, resolution: Double) throws -> Result {
        guard let estimate = ClockFilter.estimate(taken, resolutionMS: resolution) else {
            throw ConnError.dataError(.noUsableSamples, "none of the \(taken.count) samples from \(source) was usable (negative delays: a clock stepped?)")
        }
        return Result(estimate: estimate, method: method, source: source, samples: taken, requests: taken.count + 1)
    }

    /// "host", "host:port", "[v6]" or "[v6]:port"; nil when a port is given but is not 1–65535.
    /// A bare IPv6 address (several colons, no brackets) is a host.
    static func hostAndPort(_ text: String, defaultPort: Int) -> (String, Int)? {
        func port(_ text: Substring) -> Int? {
            guard let value = Int(text), (1...65_535).contains(value) else { return nil }
            return value
        }
        if text.contains("[") || text.contains("]") {
            // Brackets hold an IPv6 address, whole: `[::1`, `[zz]` are malformed.
            guard text.hasPrefix("["), let close = text.firstIndex(of: "]") else { return nil }
            let host = String(text[text.index(after: text.startIndex)..<close])
            guard IPLiteral.isIPv6(host) else { return nil }
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return (host, defaultPort) }
            guard rest.hasPrefix(":"), let value = port(rest.dropFirst()) else { return nil }
            return (host, value)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard !parts[0].isEmpty, let value = port(parts[1]) else { return nil }
            return (String(parts[0]), value)
        }
        return text.isEmpty ? nil : (text, defaultPort)
    }
}
