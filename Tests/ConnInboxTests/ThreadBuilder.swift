@testable import ConnInbox

/// ThreadLayout's conversations keyed by uid, for the tests: the threading rules checked one by
/// one (ThreadingTests) and the model a fetch's incremental merge must equal (InboxMergeTests).
/// The code reads threads through ThreadLayout (InboxMerge, ThreadView).
///
/// It builds conversations from `responseToUid` links, without recursion (a 1,000-deep thread must
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
enum ThreadBuilder {
    struct Message: Sendable, Equatable {
        var uid: String
        var parentUid: String
        /// Orders siblings and conversations: older first.
        var order: Int

        init(uid: String, parentUid: String, order: Int) {
            self.uid = uid
            self.parentUid = parentUid
            self.order = order
        }
    }

    struct Node: Sendable, Equatable {
        /// The message's uid, or the missing parent's uid for a placeholder.
        var uid: String
        var isPlaceholder: Bool
        var parentUid: String?
        var depth: Int
        var children: [String]
        /// This message closed a cycle; its link was cut to make it a root.
        var brokeCycle: Bool
        var duplicate: Bool
    }

    struct Forest: Sendable, Equatable {
        /// Roots, oldest conversation first.
        var roots: [String]
        var nodes: [String: Node]

        /// The conversation's nodes in display order (depth first, older siblings first).
        func walk(from root: String) -> [Node] {
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
        func root(of uid: String) -> String? {
            var current = uid
            var steps = 0
            while let parent = nodes[current]?.parentUid, steps <= nodes.count {
                current = parent
                steps += 1
            }
            return nodes[current] == nil ? nil : current
        }
    }

    static func build(_ input: [Message]) -> Forest {
        // Duplicates: the later occurrence wins, flagged.
        var position: [String: Int] = [:]
        var unique: [Message] = []
        var duplicates: Set<String> = []
        for message in input {
            if let earlier = position[message.uid] {
                duplicates.insert(message.uid)
                unique[earlier] = message
            } else {
                position[message.uid] = unique.count
                unique.append(message)
            }
        }
        let layout = ThreadLayout(uids: unique.map(\.uid), parentUids: unique.map(\.parentUid), order: unique.map(\.order))
        let uid = layout.uid
        var nodes = [String: Node](minimumCapacity: layout.nodeCount)
        for node in 0..<layout.nodeCount {
            let isPlaceholder = layout.isPlaceholder(node)
            nodes[uid(node)] = Node(uid: uid(node), isPlaceholder: isPlaceholder, parentUid: layout.parent[node].map(uid), depth: layout.depth[node],
                                    children: layout.children(node).map(uid), brokeCycle: layout.brokeCycle[node],
                                    duplicate: !isPlaceholder && duplicates.contains(uid(node)))
        }
        return Forest(roots: layout.roots.map(uid), nodes: nodes)
    }
}
