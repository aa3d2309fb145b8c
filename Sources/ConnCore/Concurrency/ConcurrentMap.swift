extension Collection where Element: Sendable {
    /// `transform` applied to every element, at most `limit` at a time (a new one starts as each
    /// finishes); the results in the elements' order. Probe's targets and the outbox's deliveries
    /// both run this way.
    public func concurrentMap<Result: Sendable>(
        limit: Int, _ transform: @escaping @Sendable (Element) async -> Result
    ) async -> [Result] {
        var results: [Result] = []
        results.reserveCapacity(count)
        await concurrentForEach(limit: limit, transform) { released in results.append(contentsOf: released) }
        return results
    }

    /// `transform` applied to every element, at most `limit` at a time, each result handed to
    /// `inOrder` in the elements' order as soon as every earlier one is in: a run of results
    /// released together comes in one call. Only results that finished ahead of an earlier,
    /// slower one are held, so a caller that lets go of what it is given (a report printed line
    /// by line) holds about `limit` results, not all of them.
    public func concurrentForEach<Result: Sendable>(
        limit: Int, _ transform: @escaping @Sendable (Element) async -> Result, inOrder: ([Result]) -> Void
    ) async {
        let elements = Array(self)
        await withTaskGroup(of: (Int, Result).self) { group in
            var waiting: [Int: Result] = [:]
            var nextToRelease = 0
            var next = 0
            func startNext() {
                guard next < elements.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await transform(elements[index])) }
            }
            for _ in 0..<Swift.min(Swift.max(limit, 1), elements.count) { startNext() }
            while let (index, result) = await group.next() {
                startNext()
                guard index == nextToRelease else {
                    waiting[index] = result
                    continue
                }
                var released = [result]
                nextToRelease += 1
                while let held = waiting.removeValue(forKey: nextToRelease) {
                    released.append(held)
                    nextToRelease += 1
                }
                inOrder(released)
            }
        }
    }
}
