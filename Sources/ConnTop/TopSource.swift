/// Where `conn top` gets its samples: the running agent (over its status socket) or a live
/// session of its own. A source calls back with samples from its own threads.
protocol TopSource: Sendable {
    /// "agent pid 1234", "own monitor".
    var name: String { get }
    /// Look now, beside the schedule (`r`).
    func probeNow()
    func stop() async
}
