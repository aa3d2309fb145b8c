import ConnCommandKit
import ConnCore
import Foundation
import Synchronization

/// The agent's way of keeping chronyd fed (`chronySocket:`): every estimate of the back end's
/// clock goes to chronyd's SOCK reference clock — the live link's ping/pong estimates while it is
/// connected, else one measured (the json method) each interval in which no other came. An
/// estimate whose bound is wider than `maxUncertaintyMs` is withheld, so a slow network never
/// steers the clock. chronyd not listening is never an error: the next estimate tries again.
///
/// It speaks only when its condition changes (sending, withholding, chronyd not listening, no
/// estimate), so an agent that runs for days logs a line per change, not per sample.
public final class ChronyFeed: Sendable {
    public struct Settings: Sendable, Equatable {
        public var socket: String
        public var maxUncertaintyMs: Double
        /// How long without an estimate before one is measured.
        public var interval: Duration

        public init(socket: String, maxUncertaintyMs: Double, interval: Duration) {
            self.socket = socket
            self.maxUncertaintyMs = maxUncertaintyMs
            self.interval = interval
        }
    }

    /// One estimate and what became of it.
    public struct Sample: Sendable, Equatable {
        public enum Outcome: String, Sendable, CaseIterable {
            /// chronyd took it.
            case sent
            /// Its bound was wider than the most allowed.
            case withheld
            /// chronyd did not listen.
            case unavailable
        }

        public var at: Date
        public var offsetMs: Double
        public var uncertaintyMs: Double
        /// ws (the live link) or json (measured).
        public var method: String
        public var outcome: Outcome
    }

    /// A change of the feed's condition: what the agent logs.
    public enum News: Sendable, Equatable {
        /// chronyd takes samples (at the first, and again after any trouble).
        case sending(Sample)
        case withheld(Sample, maxUncertaintyMs: Double)
        case unavailable(String)
        case noEstimate(String)

        fileprivate var condition: Condition {
            switch self {
            case .sending: .sending
            case .withheld: .withheld
            case .unavailable: .unavailable
            case .noEstimate: .noEstimate
            }
        }

        public var text: String {
            switch self {
            case .sending(let sample):
                "sending estimates to chronyd (this one \(OffsetWording.value(offsetMs: sample.offsetMs, uncertaintyMs: sample.uncertaintyMs)), \(sample.method))"
            case .withheld(let sample, let most):
                "estimates withheld from chronyd: the bound ±\(OffsetWording.number(sample.uncertaintyMs)) ms is wider than chronyMaxUncertainty \(ConnConfiguration.millisecondsText(most)) ms"
            case .unavailable(let reason):
                "\(reason); trying again at each estimate"
            case .noEstimate(let reason):
                "no clock estimate, nothing sent to chronyd: \(reason)"
            }
        }
    }

    /// Measures the back end's clock once: the estimate and the method's name.
    public typealias Measure = @Sendable () async throws -> (estimate: ClockEstimate, method: String)

    public let settings: Settings
    private let socket: ChronySocket
    private let measure: Measure

    /// The live link as the feed last heard of it: while it settles (its first attempt), nothing
    /// is measured, so a connected link's ping/pong is what chronyd hears first.
    private enum Link {
        case none, settling, connected, down
    }

    private struct State {
        var link: Link
        var lastSampleAt: ContinuousClock.Instant?
        /// The condition last said, so each is said once until another replaces it.
        var said: Condition?
        var onSample: (@Sendable (Sample) -> Void)?
        var onNews: (@Sendable (News) -> Void)?
    }

    /// The kind of a piece of news, without its sample: what is said once until another replaces it.
    fileprivate enum Condition: Equatable {
        case sending, withheld, unavailable, noEstimate
    }

    private let state: Mutex<State>
    private let measuring = Mutex<Task<Void, Never>?>(nil)

    /// Refuses a path that exists and is not a socket (a configuration error, 78); an absent
    /// one is fine: chronyd may start later. `waitsForLink`: a live link is held, whose states
    /// come to `linkChanged`.
    public init(_ settings: Settings, waitsForLink: Bool, measure: @escaping Measure) throws {
        if ChronySocket.isOtherThanSocket(settings.socket) {
            throw ConnError.configuration("chronySocket \(settings.socket) is not a socket", hint: ChronySocket.pathHint)
        }
        self.settings = settings
        state = Mutex(State(link: waitsForLink ? .settling : .none))
        socket = ChronySocket(path: settings.socket)
        self.measure = measure
    }

    /// The json method against the configured server, taken the way `clock-offset` takes it (4
    /// exchanges 100 ms apart); each estimate is also stored for `clock-offset --convert`.
    public static func measuring(_ context: CommandContext, storingIn database: LocalDatabase) -> Measure {
        return {
            let result = try await ClockOffsetMeasurement(context: context, method: .json, samples: 4, interval: .milliseconds(100),
                                                          url: nil, ntpServer: "", precisionMS: 5).run()
            try? StoredOffset(offsetMs: result.estimate.offsetMS, uncertaintyMs: result.estimate.uncertaintyMS, method: result.method.rawValue,
                              source: result.source, measuredAt: Date()).save(to: database)
            return (result.estimate, result.method.rawValue)
        }
    }

    /// Starts measuring in the intervals the link leaves empty; `onSample` hears every estimate
    /// and what became of it, `onNews` each change of condition.
    public func start(onSample: @escaping @Sendable (Sample) -> Void, onNews: @escaping @Sendable (News) -> Void) {
        state.withLock {
            $0.onSample = onSample
            $0.onNews = onNews
        }
        let interval = settings.interval
        let task = Task { [weak self] in
            // A moment first, for the link's opening pings to come.
            try? await Task.sleep(for: min(interval, .seconds(2)))
            while !Task.isCancelled {
                await self?.measureIfQuiet()
                try? await Task.sleep(for: interval)
            }
        }
        measuring.withLock { $0 = task }
    }

    public func stop() {
        measuring.withLock { $0 }?.cancel()
    }

    /// The live link's state: connected, its estimates feed chronyd; down, the feed measures.
    public func linkChanged(_ link: ConnectionState) {
        state.withLock { $0.link = link.isConnected ? .connected : link.isInitializing ? .settling : .down }
    }

    /// An estimate from elsewhere (the live link's ping/pong), for the moment `at`.
    public func offer(_ estimate: ClockEstimate, method: String, at: Date = Date()) {
        var sample = Sample(at: at, offsetMs: estimate.offsetMS, uncertaintyMs: estimate.uncertaintyMS, method: method, outcome: .withheld)
        let news: News
        if estimate.uncertaintyMS > settings.maxUncertaintyMs {
            news = .withheld(sample, maxUncertaintyMs: settings.maxUncertaintyMs)
        } else if let refusal = socket.send(offsetSeconds: estimate.offsetMS / 1000, at: at) {
            sample.outcome = .unavailable
            news = .unavailable(refusal)
        } else {
            sample.outcome = .sent
            news = .sending(sample)
        }
        record(sample, news: news)
    }

    private func record(_ sample: Sample?, news: News) {
        let condition = news.condition
        let (onSample, onNews) = state.withLock { state -> ((@Sendable (Sample) -> Void)?, (@Sendable (News) -> Void)?) in
            if sample != nil { state.lastSampleAt = .now }
            defer { state.said = condition }
            return (state.onSample, state.said == condition ? nil : state.onNews)
        }
        if let sample { onSample?(sample) }
        onNews?(news)
    }

    /// Measures when no estimate came for most of an interval (the link is down, or held by no one).
    private func measureIfQuiet() async {
        let quiet = state.withLock { state in
            state.link != .settling && state.lastSampleAt.map { ContinuousClock.now - $0 >= settings.interval * 0.9 } ?? true
        }
        guard quiet else { return }
        do {
            let (estimate, method) = try await measure()
            if Task.isCancelled { return }
            offer(estimate, method: method)
        } catch {
            if Task.isCancelled { return }
            record(nil, news: .noEstimate((error as? ConnError)?.message ?? "\(error)"))
        }
    }
}
