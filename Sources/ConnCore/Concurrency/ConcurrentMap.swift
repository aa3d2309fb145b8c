extension Collection where Element: Sendable {
    /// `transform` applied to every element, at most `limit` at a time (a new one starts as each
    /// finishes); the results in the elements' order. Probe's targets and the outbox's deliveries
    /// both run this way.
    public func concurrentMap<Result: Sendable>(
        limit: Int, _ transform: @escaping @Sendable (Element) async -> Result
    ) async -> [Result] {
        let elements = Array(self)
        return await withTaskGroup(of: (Int, Result).self) { group in
            var results = [Result?](repeating: nil, count: elements.count)
            var next = 0
            func startNext() {
                guard next < elements.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await transform(elements[index])) }
            }
            for _ in 0..<Swift.min(Swift.max(limit, 1), elements.count) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                startNext()
            }
            return results.map { $0! }
        }
    }
}
