/// The conversations of a fetch's merge, in 12 bytes a message (16 while it is built): what `ThreadLayout` computes,
/// over 32-bit node numbers and without uids, so that a million messages thread in bounded
/// memory. Messages are nodes `0..<messageCount` in arrival order; placeholders for missing
/// parents follow them. A message's age is its sort key, then its node number (arrival).
struct ThreadForest {
    let messageCount: Int
    /// Each node's parent, or -1 for a root.
    private(set) var parent: [Int32]
    /// Node n's children, older first, are `childList[childStart[n]..<childStart[n + 1]]`.
    private let childStart: [Int32]
    private let childList: [Int32]
    /// The messages that closed a cycle; their link was cut to make them roots.
    let brokeCycle: Set<Int32>
    /// Roots, oldest conversation first (a placeholder is as old as its oldest child).
    let roots: [Int32]

    var nodeCount: Int { parent.count }
    func isPlaceholder(_ node: Int32) -> Bool { Int(node) >= messageCount }

    /// - Parameters:
    ///   - parent: each message's parent node (a placeholder's number for a missing parent), -1
    ///     for none; placeholders are the nodes from `parent.count` to `nodeCount`.
    ///   - placeholderCount: how many placeholders there are.
    ///   - sortKeys: each message's sort key.
    ///   (Taken, not copied: `parent` is left empty.)
    init(parent messageParent: inout [Int32], placeholderCount: Int, sortKeys: [Double]) {
        precondition(messageParent.count == sortKeys.count)
        messageCount = messageParent.count
        var parent: [Int32] = []
        swap(&parent, &messageParent)
        parent.append(contentsOf: repeatElement(-1, count: placeholderCount))
        func older(_ a: Int32, _ b: Int32) -> Bool {
            sortKeys[Int(a)] != sortKeys[Int(b)] ? sortKeys[Int(a)] < sortKeys[Int(b)] : a < b
        }

        // Cycles: follow each chain, marking visits; a chain that returns to a node on the
        // current path is cut at that cycle's oldest member.
        var brokeCycle: Set<Int32> = []
        var state = [UInt8](repeating: 0, count: messageCount)  // 1 = on the current path, 2 = done
        var path: [Int32] = []
        for start in 0..<Int32(messageCount) where state[Int(start)] == 0 {
            path.removeAll(keepingCapacity: true)
            var current = start
            while current >= 0, Int(current) < messageCount, state[Int(current)] == 0 {
                state[Int(current)] = 1
                path.append(current)
                current = parent[Int(current)]
            }
            if current >= 0, Int(current) < messageCount, state[Int(current)] == 1, let cycleStart = path.firstIndex(of: current) {
                let oldest = path[cycleStart...].min(by: older)!
                parent[Int(oldest)] = -1
                brokeCycle.insert(oldest)
            }
            for node in path { state[Int(node)] = 2 }
        }
        state = []

        // Children and roots in age order: the messages sorted once, and each put before its
        // parent's younger children, youngest first, each parent's slots filled from the end
        // (so `childStart` ends as the starts without an array of cursors beside it).
        var order = (0..<Int32(messageCount)).map { $0 }
        order.sort(by: older)
        var childStart = [Int32](repeating: 0, count: parent.count + 1)
        for link in parent where link >= 0 { childStart[Int(link)] += 1 }
        // Each placeholder's children yet to place: it becomes a root with the last (its oldest).
        var unplaced = Array(childStart[messageCount..<parent.count])
        for node in 0..<parent.count { childStart[node + 1] += childStart[node] }  // each parent's end
        var childList = [Int32](repeating: 0, count: Int(childStart[parent.count]))
        var roots: [Int32] = []
        for node in order.reversed() {
            let link = parent[Int(node)]
            guard link >= 0 else {
                roots.append(node)
                continue
            }
            childStart[Int(link)] -= 1
            childList[Int(childStart[Int(link)])] = node
            if Int(link) >= messageCount {
                unplaced[Int(link) - messageCount] -= 1
                if unplaced[Int(link) - messageCount] == 0 { roots.append(link) }
            }
        }
        roots.reverse()
        self.parent = parent
        self.childStart = childStart
        self.childList = childList
        self.brokeCycle = brokeCycle
        self.roots = roots
    }

    /// The conversation under `root` in display order (depth first, older siblings first), with
    /// each node's depth.
    func walk(from root: Int32) -> [(node: Int32, depth: Int32)] {
        var result: [(node: Int32, depth: Int32)] = []
        var stack: [(node: Int32, depth: Int32)] = [(root, 0)]
        while let (node, depth) = stack.popLast() {
            result.append((node, depth))
            let children = childList[Int(childStart[Int(node)])..<Int(childStart[Int(node) + 1])]
            for child in children.reversed() { stack.append((child, depth + 1)) }
        }
        return result
    }
}
