/// How soon the link tries again while the server's host refuses the connection: nothing listens
/// on the port, which is what a server being restarted or redeployed looks like. A refusal costs
/// both sides next to nothing (a SYN and the kernel's RST, no TLS, no request), so the link knocks
/// often enough to notice the server within a small share of the outage — the queued messages
/// then go out at once, not up to a second late — and backs off as the outage lengthens: the wait
/// is at most `share` of how long the host has been refusing, never under `floor` (about 27
/// knocks a second, drawn from the upper half, at the start of an outage); the link takes the
/// smaller of this and its usual backoff, so never more than its cap. Any other ending (a
/// connection, a timeout, a declined upgrade) ends the streak.
struct RefusedRetry {
    static let floor: Duration = .milliseconds(50)
    /// 1/200: noticed within 0.5 % of the outage (50 ms after 10 s, 1 s after 200 s).
    static let share = 0.005

    /// When the current streak of refusals began.
    private var since: ContinuousClock.Instant?

    /// The ceiling of the wait after an attempt that was (`refused`) or was not refused; nil when
    /// the usual backoff applies.
    mutating func ceiling(afterRefusal refused: Bool, now: ContinuousClock.Instant) -> Duration? {
        guard refused else {
            since = nil
            return nil
        }
        let start = since ?? now
        since = start
        return max(Self.floor, (now - start) * Self.share)
    }
}
