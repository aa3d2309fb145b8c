import Histogram

/// Times in milliseconds, summed up in constant memory: the count, min, max, mean and standard
/// deviation exactly (Welford's running sums), and percentiles from an HDR histogram of
/// microseconds with three significant digits (within 0.1 %, as wrk and HdrHistogram's users
/// report them; nearest rank, never outside the min and max seen). The histogram grows with the
/// range of the times, never with their number: a million rounds hold what ten do.
struct TimeSamples: Sendable {
    private var histogram: Histogram<UInt32> = {
        var histogram = Histogram<UInt32>(
            lowestDiscernibleValue: 1, highestTrackableValue: initialCeilingMicroseconds, numberOfSignificantValueDigits: .three)
        histogram.autoResize = true
        return histogram
    }()
    private(set) var count = 0
    private(set) var minMs = Double.infinity
    private(set) var maxMs = -Double.infinity
    private(set) var meanMs = 0.0
    /// The sum of squared differences from the mean (Welford).
    private var squares = 0.0
    /// The last time added, and the sum of the absolute differences between consecutive times:
    /// the jitter as mtr and RFC 3550 mean it (how much one time differs from the one before).
    private var previousMs: Double?
    private var consecutiveDifferences = 0.0

    /// The longest time kept in the histogram: a day (a longer time counts as a day there).
    static let ceilingMicroseconds: UInt64 = 86_400_000_000

    /// What the histogram covers from the start: 16.7 s (15,360 counters, 60 KB), so that the
    /// times of a probe never make it grow. Growing goes through the library's unspecialised
    /// generic append, one witness call per counter: ~50 million instructions under valgrind.
    static let initialCeilingMicroseconds: UInt64 = 16_000_000

    mutating func add(_ ms: Double) {
        guard ms.isFinite, ms >= 0 else { return }
        count += 1
        minMs = min(minMs, ms)
        maxMs = max(maxMs, ms)
        let delta = ms - meanMs
        meanMs += delta / Double(count)
        squares += delta * (ms - meanMs)
        if let previousMs { consecutiveDifferences += abs(ms - previousMs) }
        previousMs = ms
        let microseconds = ms * 1000 >= Double(Self.ceilingMicroseconds) ? Self.ceilingMicroseconds : UInt64((ms * 1000).rounded())
        _ = histogram.record(microseconds)
    }

    /// The population's standard deviation.
    var deviationMs: Double { count == 0 ? 0 : (squares / Double(count)).squareRoot() }

    /// The mean absolute difference between consecutive times (mtr's Javg; 0 with fewer than two).
    var jitterMs: Double { count < 2 ? 0 : consecutiveDifferences / Double(count - 1) }

    /// The nearest-rank percentile, from the histogram, kept within the min and max seen.
    func percentileMs(_ percent: Double) -> Double {
        guard count > 0 else { return 0 }
        let value = Double(histogram.valueAtPercentile(percent)) / 1000
        return Swift.min(Swift.max(value, minMs), maxMs)
    }

    var footprintBytes: Int { histogram.estimatedFootprintInBytes }
}
