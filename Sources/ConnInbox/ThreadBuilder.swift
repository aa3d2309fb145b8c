/// Builds conversations from `responseToUid` links, without recursion (a 1,000-deep thread must
/// not overflow the stack) and without losing anything:
///
/// - a reply whose parent is not in the cache hangs under a placeholder for that parent, so its
///   siblings stay together;
/// - a message that answers itself is a root;
/// - a cycle (a answers b answers a) is broken at its oldest message, which becomes a root and is
///   flagged;
/// - a uid that occurs twice is flagged; the later occurrence wins.
///
/// Every message appears exactly once.
public enum ThreadBuilder {
    public struct Message: Sendable, Equatable {
        public var uid: String
        public var parentUid: String
        /// Orders siblings and conversations: older first.
        public var order: Int

        public init(uid: String, parentUid: String, order: Int) {
            self.uid = uid
            self.parentUid = parentUid
            self.order = order
        }
    }

    public struct Node: Sendable, Equatable {
        /// The message's uid, or the missing parent's uid for a placeholder.
        public var uid: String
        public var isPlaceholder: Bool
        public var parentUid: String?
        public var depth: Int
        public var children: [String]
        /// This message closed a cycle; its link was cut to make it a root.
        public var brokeCycle: Bool
        public var duplicate: Bool
    }

    public struct Forest: Sendable, Equatable {
        /// Roots, oldest conversation first.
        public var roots: [String]
        public var nodes: [String: Node]

        /// The conversation's nodes in display order (depth first, older siblings first).
        public func walk(from root: String) -> [Node] {
            var result: [Node] = []
            var stack = [root]
            while let uid = stack.popLast() {
                guard let node = nodes[uid] else { continue }
                result.append(node)
                stack.append(contentsOf: node.children.reversed())
            }
            return result
        }

        /// The root of the conversation that holds `uid`.
        public func root(of uid: String) -> String? {
            var current = uid
            var steps = 0
            while let parent = nodes[current]?.parentUid, steps <= nodes.count {
                current = parent
                steps += 1
            }
            return nodes[current] == nil ? nil : current
        }
    }

    public static func build(_ input: [Message]) -> Forest {
        // Duplicates: the later occurrence wins, flagged.
        var byUid: [String: Message] = [:]
        var duplicates: Set<String> = []
        for message in input {
            if byUid[message.uid] != nil { duplicates.insert(message.uid) }
            byUid[message.uid] = message
        }
        var parentOf: [String: String] = [:]
        for message in byUid.values where !message.parentUid.isEmpty && message.parentUid != message.uid {
            parentOf[message.uid] = message.parentUid
        }

        // Cycles: follow each chain, marking visits; a chain that returns to itself is cut at
        // its oldest member.
        var brokeCycle: Set<String> = []
        var state: [String: Int] = [:]  // 1 = on the current path, 2 = done
        for start in byUid.keys.sorted() where state[start] == nil {
            var path: [String] = []
            var current: String? = start
            while let uid = current, byUid[uid] != nil, state[uid] == nil {
                state[uid] = 1
                path.append(uid)
                current = parentOf[uid]
            }
            if let uid = current, state[uid] == 1, let cycleStart = path.firstIndex(of: uid) {
                let cycle = path[cycleStart...]
                let oldest = cycle.min { (byUid[$0]!.order, $0) < (byUid[$1]!.order, $1) }!
                parentOf[oldest] = nil
                brokeCycle.insert(oldest)
            }
            for uid in path { state[uid] = 2 }
        }

        var nodes: [String: Node] = [:]
        for message in byUid.values {
            nodes[message.uid] = Node(uid: message.uid, isPlaceholder: false, parentUid: parentOf[message.uid], depth: 0,
                                      children: [], brokeCycle: brokeCycle.contains(message.uid), duplicate: duplicates.contains(message.uid))
        }
        // Placeholders for parents that are not in the cache, ordered as their oldest child.
        var placeholderOrder: [String: Int] = [:]
        for (child, parent) in parentOf where byUid[parent] == nil {
            if nodes[parent] == nil {
                nodes[parent] = Node(uid: parent, isPlaceholder: true, parentUid: nil, depth: 0, children: [], brokeCycle: false, duplicate: false)
            }
            placeholderOrder[parent] = min(placeholderOrder[parent] ?? Int.max, byUid[child]!.order)
        }
        func order(_ uid: String) -> Int { byUid[uid]?.order ?? placeholderOrder[uid] ?? Int.max }
        // Keys computed once, not twice per comparison (a hash lookup each).
        let ordered = nodes.keys.map { (order($0), $0) }.sorted { $0 < $1 }.map(\.1)
        for uid in ordered {
            if let parent = nodes[uid]?.parentUid { nodes[parent]?.children.append(uid) }
        }
        let roots = ordered.filter { nodes[$0]?.parentUid == nil }
        // Depths, breadth first from the roots.
        var queue = roots[...]
        while let uid = queue.popFirst() {
            let depth = nodes[uid]!.depth
            for child in nodes[uid]!.children {
                nodes[child]!.depth = depth + 1
                queue.append(child)
            }
        }
        return Forest(roots: roots, nodes: nodes)
    }
}
