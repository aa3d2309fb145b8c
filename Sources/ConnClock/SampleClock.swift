import Foundation

/// Local timestamps for clock exchanges: one wall-clock reading at the start, then a monotonic
/// clock, so a wall-clock step during a measurement cannot corrupt the samples.
public struct SampleClock: Sendable {
    private let wallAtStartMS: Double
    private let monotonicStart: ContinuousClock.Instant

    public init() {
        monotonicStart = ContinuousClock.now
        wallAtStartMS = Date().timeIntervalSince1970 * 1000
    }

    /// Milliseconds since the Unix epoch, on this device's clock.
    public func nowMS() -> Double {
        let (seconds, attoseconds) = monotonicStart.duration(to: .now).components
        return wallAtStartMS + Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
