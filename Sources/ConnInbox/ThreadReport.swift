import ConnCommandKit
import ConnCore
import ConnOutbox

/// What `conn inbox thread` prints: the tree (or the date order), each message in full.
/// JSON has a flat list (uid, parentUid, depth) and a nested tree down to --max-depth.
struct ThreadReport: Encodable, TextRenderable {
    struct TreeNode: Encodable {
        let uid: String
        let placeholder: Bool
        var children: [TreeNode]
        /// Replies deeper than --max-depth, left out of the nested tree (they are in `messages`).
        var omittedReplies: Int
    }

    /// A reply to a message of this conversation that is still in the outbox.
    struct OutboxReply: Encodable {
        let id: String
        let responseToUid: String
        let to: String
        let subject: String
        /// pending | sending | failed
        let state: String
        let displayState: String

        init(_ message: OutboxMessage) {
            id = message.id
            responseToUid = message.responseToUid ?? ""
            to = message.to
            subject = message.subject
            state = message.state.rawValue
            displayState = message.displayState
        }
    }

    let root: String
    let subject: String
    let messages: [ThreadView.Message]
    let tree: TreeNode?
    let outbox: [OutboxReply]
    let view: ThreadView
    let ascii: Bool
    /// The symbols of the text, in ASCII with --ascii or a locale that is not UTF-8.
    private var arrow: String { ascii ? "->" : "→" }
    private var dot: String { ascii ? "-" : "·" }
    let flat: Bool
    let maxDepth: Int
    /// The terminal's width (text only): headers elide recipients as "+N", text lines wrap.
    var width = 80

    private enum CodingKeys: String, CodingKey { case root, subject, messages, tree, outbox }

    init(view: ThreadView, outbox: [OutboxReply] = [], ascii: Bool, flat: Bool, maxDepth: Int) {
        self.view = view
        self.outbox = outbox
        self.ascii = ascii
        self.flat = flat
        self.maxDepth = maxDepth
        root = view.root
        subject = view.messages.first { !$0.placeholder }?.subject ?? ""
        messages = flat ? view.byDate : view.messages
        tree = Self.nest(view.messages, maxDepth: maxDepth)
    }

    /// Builds the nested tree from the depth-first list without recursion.
    static func nest(_ messages: [ThreadView.Message], maxDepth: Int) -> TreeNode? {
        guard !messages.isEmpty else { return nil }
        var stack: [TreeNode] = []
        var depths: [Int] = []
        var result: TreeNode?
        func closeTop() {
            let node = stack.removeLast()
            depths.removeLast()
            if stack.isEmpty { result = node } else { stack[stack.count - 1].children.append(node) }
        }
        for message in messages {
            while let depth = depths.last, depth >= message.depth { closeTop() }
            if message.depth > maxDepth {
                if !stack.isEmpty { stack[stack.count - 1].omittedReplies += 1 }
                continue
            }
            stack.append(TreeNode(uid: message.uid, placeholder: message.placeholder, children: [], omittedReplies: 0))
            depths.append(message.depth)
        }
        while !stack.isEmpty { closeTop() }
        return result
    }

    /// Whether each message of a depth-first list is the last child of its parent, to draw the
    /// connecting lines. One pass with a stack of the open message at each depth: a message at
    /// depth d is a later sibling of the one open at d (anything shallower in between would have
    /// closed it). Linear, so a 100,000-message chain draws as fast as it lists.
    static func lastChildFlags(_ depths: [Int]) -> [Bool] {
        var isLast = [Bool](repeating: true, count: depths.count)
        var openAtDepth: [Int] = []  // index of the open message at each depth
        for (index, depth) in depths.enumerated() {
            if openAtDepth.count > depth {
                isLast[openAtDepth[depth]] = false
                openAtDepth.removeLast(openAtDepth.count - depth)
            }
            // A gap (a depth more than one below the last) cannot occur in a depth-first list;
            // padding keeps the stack's indices equal to depths if one ever does.
            while openAtDepth.count < depth { openAtDepth.append(index) }
            openAtDepth.append(index)
        }
        return isLast
    }

    func renderText(style: TextStyle) -> String {
        renderMessages(style: style) + renderOutbox(style: style)
    }

    private func renderOutbox(style: TextStyle) -> String {
        guard !outbox.isEmpty else { return "" }
        let line = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        var output = "\n" + style.bold("in your outbox") + "\n"
        for reply in outbox {
            let state = reply.state == "failed" ? style.red(reply.displayState) : style.yellow(reply.displayState)
            output += "  \(state)  reply to uid \(line(reply.responseToUid)) \(arrow) \(line(reply.to))  \(line(reply.subject))  \(style.dim("id \(reply.id.prefix(8))"))\n"
        }
        return output
    }

    /// "from → to  date · uid N  [flags]" within `room` columns: the recipients give way first
    /// ("+N"); then the date and uid go to a second line (indented by `indent`), and what is
    /// still too long is cut.
    private func header(_ message: ThreadView.Message, room: Int, indent: String, style: TextStyle) -> [String] {
        let line = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        let ellipsis = ascii ? "..." : "…"
        let from = line(message.from)
        // The full local date and time where the server's text is a date; its own words otherwise.
        let when = message.date.flatMap { DateTimeText.isRelativeWord(message.dateTime) ? nil : style.moment($0) } ?? line(message.dateTime)
        let details = "\(when) \(dot) uid \(line(message.uid))" + (message.copy.map { " (copy \($0))" } ?? "")
        let flags = message.flags.isEmpty ? "" : "  [\(message.flags.joined(separator: ", "))]"
        let recipients = line(message.to).components(separatedBy: ", ")
        let fixed = from.count + arrow.count + 2
        let to = FittedText.participants(recipients, fitting: room - fixed - 2 - details.count - flags.count)
        if fixed + to.count + 2 + details.count + flags.count <= room {
            return [style.bold(from) + " \(arrow) " + to + style.dim("  " + details) + (flags.isEmpty ? "" : style.yellow(flags))]
        }
        let alone = FittedText.participants(recipients, fitting: room - fixed)
        let first = FittedText.cut(from + " \(arrow) " + alone, to: room, ellipsis: ellipsis)
        let second = FittedText.cut(details + flags, to: max(10, width - 1 - indent.count), ellipsis: ellipsis)
        return [style.bold(first), indent + style.dim(second)]
    }

    /// The message's text, each line wrapped to the width after `indent`.
    private func text(_ message: ThreadView.Message, indent: String) -> [String] {
        let room = max(20, width - 1 - indent.count)
        return TerminalSanitizer.sanitize(message.text).split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { FittedText.wrap($0, to: room) }
            .map { indent + $0 }
    }

    private func renderMessages(style: TextStyle) -> String {
        let line = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        var output = style.bold(line(subject.isEmpty ? "(no subject)" : subject)) + "\n"
        let (branch, last, pipe, space) = ascii ? ("|- ", "`- ", "|  ", "   ") : ("├─ ", "└─ ", "│  ", "   ")
        if flat {
            for message in view.byDate {
                output += "\n" + header(message, room: width - 1, indent: "  ", style: style).joined(separator: "\n") + "\n"
                output += text(message, indent: "  ").joined(separator: "\n") + "\n"
            }
            return output
        }
        let list = view.messages
        let isLast = Self.lastChildFlags(list.map(\.depth))
        var openLevels: [Bool] = []  // for each depth above: does a later sibling follow?
        var omitted = 0
        for (index, message) in list.enumerated() {
            if message.depth > maxDepth { omitted += 1; continue }
            if openLevels.count > message.depth { openLevels.removeLast(openLevels.count - message.depth) }
            let prefix = openLevels.dropFirst().map { $0 ? pipe : space }.joined()
            let connector = message.depth == 0 ? "" : (isLast[index] ? last : branch)
            let body = prefix + (message.depth == 0 ? "" : (isLast[index] ? space : pipe))
            if message.placeholder {
                output += prefix + connector + style.dim("[message \(line(message.uid)) is not in the cache]") + "\n"
            } else {
                let head = header(message, room: width - 1 - prefix.count - connector.count, indent: body + "  ", style: style)
                output += prefix + connector + head.joined(separator: "\n") + "\n"
                for textLine in text(message, indent: body + "  ") { output += textLine + "\n" }
            }
            openLevels.append(!isLast[index])
        }
        if omitted > 0 { output += style.dim("\(ascii ? "..." : "…") \(omitted) deeper replies not drawn (--max-depth \(maxDepth); --flat lists them)") + "\n" }
        return output
    }
}
