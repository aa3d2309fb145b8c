import ConnCore
import Foundation

/// Names resolved before a probe, used by its ladder instead of a second lookup. `/probe`
/// judges the addresses a target's name leads to (a loopback or metadata address needs naming)
/// and then connects to exactly those: a resolver that answers otherwise the second time (DNS
/// rebinding) gets no second time.
public struct SettledNames: Sendable {
    struct Answer: Sendable {
        let result: Result<[ResolvedAddress], NameResolver.Failure>
        let elapsed: Duration
    }

    private var answers: [String: Answer] = [:]

    public init() {}

    /// `host` looked up once with the system resolver, within `timeout`.
    public static func resolving(_ host: String, port: Int, timeout: Duration) async -> SettledNames {
        var names = SettledNames()
        let clock = ContinuousClock()
        let start = clock.now
        let result = await NameResolver.resolve(host: host, port: port, timeout: timeout)
        names.answers[host.lowercased()] = Answer(result: result, elapsed: start.duration(to: clock.now))
        return names
    }

    /// The addresses found for `host` (empty when it did not resolve, or was not looked up).
    public func addresses(of host: String) -> [String] {
        guard case .success(let found)? = answers[host.lowercased()]?.result else { return [] }
        return found.map(\.ip)
    }

    /// The settled answer for `host`, its addresses on `port`; nil when `host` was not looked up.
    func answer(for host: String, port: Int) -> Answer? {
        guard let answer = answers[host.lowercased()] else { return nil }
        return Answer(result: answer.result.map { $0.map { ResolvedAddress(family: $0.family, ip: $0.ip, port: port) } }, elapsed: answer.elapsed)
    }
}
