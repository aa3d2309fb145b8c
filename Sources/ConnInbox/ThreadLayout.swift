/// The conversation structure of a set of messages with distinct uids, addressed by index:
/// computed without a dictionary lookup per step, so that `inbox thread` draws a conversation
/// of 100,000 in milliseconds. Messages are nodes `0..<messageCount`; placeholders for missing
/// parents follow them. (A fetch's merge threads with `ThreadForest`, the same rules over node
/// numbers without uids; a test holds the two to the same answers.)
struct ThreadLayout {
    /// The number of real messages; nodes from here on are placeholders.
    let messageCount: Int
    /// The uid of each message node.
    let uids: [String]
    /// The uid of each placeholder node (`messageCount + i`).
    let placeholderUids: [String]
    /// Each node's parent node, or nil for a root.
    let parent: [Int?]
    /// Each node's children, older first: node n's are `childList[childStart[n]..<childStart[n + 1]]`
    /// (one array for all: an array per node cost 6 MB for a chain of 100,000).
    private let childStart: [Int32]
    private let childList: [Int32]
    let depth: [Int]
    /// This message closed a cycle; its link was cut to make it a root.
    let brokeCycle: [Bool]
    /// Roots, oldest conversation first.
    let roots: [Int]

    var nodeCount: Int { parent.count }
    /// The node's children, older first.
    func children(_ node: Int) -> LazyMapSequence<ArraySlice<Int32>, Int> {
        childList[Int(childStart[node])..<Int(childStart[node + 1])].lazy.map(Int.init)
    }
    func isPlaceholder(_ node: Int) -> Bool { node >= messageCount }
    /// A message's uid, or the missing parent's for a placeholder.
    func uid(_ node: Int) -> String { Self.uid(node, uids, placeholderUids) }

    private static func uid(_ node: Int, _ uids: [String], _ placeholderUids: [String]) -> String {
        node < uids.count ? uids[node] : placeholderUids[node - uids.count]
    }

    /// - Parameters:
    ///   - uids: distinct uids, one per message.
    ///   - parentUids: each message's `responseToUid` ("" for none).
    ///   - order: each message's age rank (smaller is older); orders siblings and conversations.
    init(uids: [String], parentUids: [String], order: [Int]) {
        precondition(uids.count == parentUids.count && uids.count == order.count)
        messageCount = uids.count
        self.uids = uids
        var indexOf = [String: Int](minimumCapacity: uids.count)
        for (index, uid) in uids.enumerated() { indexOf[uid] = index }

        // Links; a parent that is not among the messages becomes a placeholder node.
        var parent = [Int?](repeating: nil, count: uids.count)
        var placeholderOf: [String: Int] = [:]
        var placeholderUids: [String] = []
        for index in uids.indices {
            let parentUid = parentUids[index]
            guard !parentUid.isEmpty, parentUid != uids[index] else { continue }
            if let known = indexOf[parentUid] {
                parent[index] = known
            } else if let placeholder = placeholderOf[parentUid] {
                parent[index] = placeholder
            } else {
                let placeholder = uids.count + placeholderUids.count
                placeholderOf[parentUid] = placeholder
                placeholderUids.append(parentUid)
                parent[index] = placeholder
            }
        }
        parent.append(contentsOf: repeatElement(nil, count: placeholderUids.count))

        // Cycles: follow each chain, marking visits; a chain that returns to a node on the
        // current path is cut at that cycle's oldest member.
        var brokeCycle = [Bool](repeating: false, count: parent.count)
        var state = [UInt8](repeating: 0, count: parent.count)  // 1 = on the current path, 2 = done
        var path: [Int] = []
        for start in 0..<uids.count where state[start] == 0 {
            path.removeAll(keepingCapacity: true)
            var current: Int? = start
            while let node = current, state[node] == 0 {
                state[node] = 1
                path.append(node)
                current = parent[node]
            }
            if let node = current, state[node] == 1, let cycleStart = path.firstIndex(of: node) {
                let oldest = path[cycleStart...].min { (order[$0], uids[$0]) < (order[$1], uids[$1]) }!
                parent[oldest] = nil
                brokeCycle[oldest] = true
            }
            for node in path { state[node] = 2 }
        }

        // A placeholder is as old as its oldest child.
        var nodeOrder = order + repeatElement(Int.max, count: placeholderUids.count)
        for index in 0..<uids.count {
            if let link = parent[index], link >= uids.count { nodeOrder[link] = min(nodeOrder[link], order[index]) }
        }
        func uid(_ node: Int) -> String { Self.uid(node, uids, placeholderUids) }
        let sorted = (0..<parent.count).sorted { nodeOrder[$0] != nodeOrder[$1] ? nodeOrder[$0] < nodeOrder[$1] : uid($0) < uid($1) }
        var childStart = [Int32](repeating: 0, count: parent.count + 1)
        for link in parent { if let link { childStart[link + 1] += 1 } }
        for node in 0..<parent.count { childStart[node + 1] += childStart[node] }
        var childList = [Int32](repeating: 0, count: Int(childStart[parent.count]))
        var filled = childStart
        var roots: [Int] = []
        for node in sorted {
            if let link = parent[node] {
                childList[Int(filled[link])] = Int32(node)
                filled[link] += 1
            } else {
                roots.append(node)
            }
        }
        func children(_ node: Int) -> ArraySlice<Int32> { childList[Int(childStart[node])..<Int(childStart[node + 1])] }

        // Depths, breadth first from the roots.
        var depth = [Int](repeating: 0, count: parent.count)
        var queue = roots
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for child in children(node) {
                depth[Int(child)] = depth[node] + 1
                queue.append(Int(child))
            }
        }
        self.placeholderUids = placeholderUids
        self.parent = parent
        self.roots = roots
        self.childStart = childStart
        self.childList = childList
        self.depth = depth
        self.brokeCycle = brokeCycle
    }

    /// The conversation under `root` in display order: depth first, older siblings first.
    func walk(from root: Int) -> [Int] {
        var result: [Int] = []
        var stack = [root]
        while let node = stack.popLast() {
            result.append(node)
            stack.append(contentsOf: children(node).reversed())
        }
        return result
    }
}
