import ConnCore

/// One request/answer exchange: t1 sent and t4 received on this device's clock, t2 received and
/// t3 sent on the back end's, all in milliseconds since the epoch.
public struct ClockSample: Sendable, Equatable, Codable {
    public var t1: Double
    public var t2: Double
    public var t3: Double
    public var t4: Double

    public init(t1: Double, t2: Double, t3: Double, t4: Double) {
        self.t1 = t1
        self.t2 = t2
        self.t3 = t3
        self.t4 = t4
    }

    /// θ = ((t2 − t1) + (t3 − t4)) / 2: back end minus device.
    public var offset: Double { ((t2 - t1) + (t3 - t4)) / 2 }
    /// δ = (t4 − t1) − (t3 − t2): the round trip, less the back end's own time.
    public var delay: Double { (t4 - t1) - (t3 - t2) }
}

/// What the samples say about the back end's clock.
public struct ClockEstimate: Sendable, Equatable {
    /// Back end minus device, in ms; positive when the back end is ahead.
    public var offsetMS: Double
    /// The true offset lies within offsetMS ± uncertaintyMS.
    public var uncertaintyMS: Double
    /// The round trip of the best sample.
    public var rttMS: Double
    /// RMS spread of the accepted samples' offsets around the best one.
    public var jitterMS: Double
    public var used: Int
    public var total: Int
}

/// NTP's clock filter, simplified: the minimum-delay sample is the most trustworthy (it spent the
/// least time queued anywhere), samples whose delay is far above the minimum are outliers, and
/// the offset of the minimum-delay sample is within δmin/2 of the truth, plus half the back end's
/// timestamp resolution. Back-end timestamps are taken to be truncated to that resolution (as
/// integer milliseconds are), so the offset is moved up by half of it to centre the bound.
public enum ClockFilter {
    public static func estimate(_ samples: [ClockSample], resolutionMS: Double) -> ClockEstimate? {
        let valid = samples.filter { $0.delay >= -resolutionMS && $0.t4 >= $0.t1 }
        guard let best = valid.min(by: { $0.delay < $1.delay }) else { return nil }
        let minimumDelay = max(best.delay, 0)
        // An outlier waited in a queue: more than twice the best round trip (and 1 ms of slack,
        // so loopback's tiny delays do not reject everything).
        let accepted = valid.filter { $0.delay <= 2 * minimumDelay + 1 }
        let jitter = (accepted.map { ($0.offset - best.offset) * ($0.offset - best.offset) }.reduce(0, +) / Double(accepted.count)).squareRoot()
        return ClockEstimate(
            offsetMS: best.offset + resolutionMS / 2, uncertaintyMS: minimumDelay / 2 + resolutionMS / 2,
            rttMS: best.t4 - best.t1, jitterMS: jitter, used: accepted.count, total: samples.count)
    }
}

extension ClockSample {
    /// The server's two times must belong to this exchange: set (after 1970), in order, and no
    /// further apart than the whole round trip took here (1 ms of slack for whole-millisecond
    /// times). `{"t2":0,"t3":0}`, a reply that claims to have been sent before it was received,
    /// or one that claims more processing time than the round trip are not measurements.
    func checkServerTimesFitTheExchange(from source: String) throws {
        guard t2 > 0, t3 > 0 else {
            throw ConnError.dataError(.badTimeAnswer, "\(source) answered t2 \(t2), t3 \(t3): a clock that is not set is no measurement")
        }
        let processing = t3 - t2
        let roundTrip = t4 - t1
        guard processing >= 0, processing <= roundTrip + 1 else {
            throw ConnError.dataError(
                .badTimeAnswer,
                "\(source) answered t2 \(t2), t3 \(t3): \(processing) ms between receiving and answering does not fit in the \(roundTrip) ms the exchange took here")
        }
    }
}
