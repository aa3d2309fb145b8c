import ConnCommandKit
import ConnCore
import ConnOutbox

/// What `conn inbox thread` prints: the tree (or the date order), each message in full.
/// JSON has a flat list (uid, parentUid, depth) and a nested tree down to --max-depth.
struct ThreadReport: Encodable, StreamingTextRenderable {
    struct TreeNode: Encodable {
        let uid: String
        let placeholder: Bool
        var children: [TreeNode]
        /// Replies deeper than --max-depth (or jsonTreeDepth), left out of the nested tree (they
        /// are in `messages`).
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
    /// The message asked for, when it lies deeper than --max-depth: text shows the root, the
    /// path to it collapsed into one line, then it and its replies (as mail clients do).
    var focus: Int?

    /// The text tree indents this deep at most; deeper messages are marked "↳ 57" (their depth)
    /// at that indentation, so output grows linearly with a chain's length, not quadratically.
    static let indentedDepth = 12

    /// The JSON `tree` nests this deep at most, whatever --max-depth says: deeper replies are
    /// counted in `omittedReplies` and listed in `messages` (the flat form: display order,
    /// `depth`, `parentUid`). Readers limit nesting: Debian's jq 1.6 refuses a document deeper
    /// than 256 levels, and each level of the tree is two (a node and its `children`).
    static let jsonTreeDepth = 64

    private enum CodingKeys: String, CodingKey { case root, subject, messages, tree, outbox }

    init(view: ThreadView, outbox: [OutboxReply] = [], ascii: Bool, flat: Bool, maxDepth: Int) {
        self.view = view
        self.outbox = outbox
        self.ascii = ascii
        self.flat = flat
        self.maxDepth = maxDepth
        root = view.root
        subject = view.subject
    }

    /// The messages (in date order with --flat), made one at a time as they are encoded.
    private struct Messages: Encodable {
        let view: ThreadView
        let order: [Int]?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for index in order ?? Array(0..<view.count) { try container.encode(view.message(at: index)) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(root, forKey: .root)
        try container.encode(subject, forKey: .subject)
        try container.encode(Messages(view: view, order: flat ? view.byDate : nil), forKey: .messages)
        try container.encode(Self.nest(view, maxDepth: min(maxDepth, Self.jsonTreeDepth)), forKey: .tree)
        try container.encode(outbox, forKey: .outbox)
    }

    /// Builds the nested tree from the depth-first list without recursion.
    static func nest(_ view: ThreadView, maxDepth: Int) -> TreeNode? {
        guard view.count > 0 else { return nil }
        var stack: [TreeNode] = []
        var depths: [Int] = []
        var result: TreeNode?
        func closeTop() {
            let node = stack.removeLast()
            depths.removeLast()
            if stack.isEmpty { result = node } else { stack[stack.count - 1].children.append(node) }
        }
        for index in 0..<view.count {
            let depth = view.depth(at: index)
            while let open = depths.last, open >= depth { closeTop() }
            if depth > maxDepth {
                if !stack.isEmpty { stack[stack.count - 1].omittedReplies += 1 }
                continue
            }
            stack.append(TreeNode(uid: view.uid(at: index), placeholder: view.isPlaceholder(at: index), children: [], omittedReplies: 0))
            depths.append(depth)
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
        var output = ""
        renderText(style: style) { output += $0 }
        return output
    }

    /// The text in pieces of about 64 KiB, so a long thread is written as it is drawn instead
    /// of being held whole (a 100,000-message chain prints 20 MB).
    func renderText(style: TextStyle, write: (String) -> Void) {
        var pending = ""
        pending.reserveCapacity(1 << 16)
        renderMessages(style: style) { piece in
            pending += piece
            if pending.utf8.count >= 1 << 16 {
                write(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        write(pending + renderOutbox(style: style))
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
        let recipients = FittedText.addresses(line(message.to))
        let fixed = from.count + arrow.count + 2
        let to = FittedText.participants(recipients, fitting: room - fixed - 2 - details.count - flags.count)
        if fixed + to.count + 2 + details.count + flags.count <= room {
            return [style.bold(from) + " \(arrow) " + to + style.dim("  " + details) + (flags.isEmpty ? "" : style.yellow(flags))]
        }
        let alone = FittedText.participants(recipients, fitting: room - fixed)
        let first = FittedText.cut(from + " \(arrow) " + alone, to: room, ellipsis: ellipsis)
        // On its own line the uid comes first: what is cut is the date, never the uid.
        let uidFirst = "uid \(line(message.uid))" + (message.copy.map { " (copy \($0))" } ?? "") + " \(dot) \(when)"
        let second = FittedText.cut(uidFirst + flags, to: max(10, width - 1 - indent.count), ellipsis: ellipsis)
        return [style.bold(first), indent + style.dim(second)]
    }

    /// The message's text, each line wrapped to the width after `indent`.
    private func text(_ message: ThreadView.Message, indent: String) -> [String] {
        let room = max(20, width - 1 - indent.count)
        // The sanitiser has turned any "\r" into U+FFFD: only "\n" ends a line here.
        return TerminalSanitizer.sanitize(message.text).lines().flatMap { FittedText.wrap($0, to: room) }.map { indent + $0 }
    }

    private func renderMessages(style: TextStyle, output: (String) -> Void) {
        let line = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        output(style.bold(line(subject.isEmpty ? "(no subject)" : subject)) + "\n")
        if flat {
            for index in view.byDate {
                let message = view.message(at: index)
                output("\n" + header(message, room: width - 1, indent: "  ", style: style).joined(separator: "\n") + "\n")
                output(text(message, indent: "  ").joined(separator: "\n") + "\n")
            }
            return
        }
        if let focus, view.depth(at: focus) > maxDepth {
            renderFocused(focus, style: style, output: output)
            return
        }
        var shown: [(index: Int, depth: Int)] = []
        var omitted = 0
        for index in 0..<view.count {
            let depth = view.depth(at: index)
            if depth > maxDepth { omitted += 1 } else { shown.append((index, depth)) }
        }
        draw(shown, style: style, output: output)
        if omitted > 0 { output(style.dim("\(ascii ? "..." : "…") \(omitted) deeper replies not drawn (--max-depth \(maxDepth); --flat lists them)") + "\n") }
    }

    /// How deep the text tree indents at `width` columns: 12 levels, fewer on a narrow terminal,
    /// so a deep message keeps room for its header (its uid above all).
    var indentedDepth: Int { max(1, min(Self.indentedDepth, (width - 40) / 3)) }

    /// Draws `shown` — display indices in depth-first order, each with the depth to draw it at —
    /// as a tree. A message drawn at another depth than its own, or past `indentedDepth`, is
    /// marked with its own depth ("↳ 57").
    private func draw(_ shown: [(index: Int, depth: Int)], style: TextStyle, output: (String) -> Void) {
        let line = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        let (branch, last, pipe, space) = ascii ? ("|- ", "`- ", "|  ", "   ") : ("├─ ", "└─ ", "│  ", "   ")
        let isLast = Self.lastChildFlags(shown.map(\.depth))
        let indented = indentedDepth
        var openLevels: [Bool] = []  // for each depth above: does a later sibling follow?
        for (position, item) in shown.enumerated() {
            let message = view.message(at: item.index)
            let depth = item.depth
            if openLevels.count > depth { openLevels.removeLast(openLevels.count - depth) }
            // Past the indented depth the lines stop moving right: a deep message is marked with
            // its depth instead, so every line costs the same however deep the thread.
            let marked = depth > indented || depth != message.depth
            let drawnLevels = max(0, min(depth, indented) - 1)
            let prefix = openLevels.dropFirst().prefix(drawnLevels).map { $0 ? pipe : space }.joined()
            let connector = depth == 0 ? "" : marked ? "\(ascii ? ">" : "↳") \(message.depth) " : (isLast[position] ? last : branch)
            let body = prefix + (depth == 0 ? "" : (marked || isLast[position] ? space : pipe))
            if message.placeholder {
                output(prefix + connector + style.dim("[message \(line(message.uid)) is not in the cache]") + "\n")
            } else {
                let head = header(message, room: width - 1 - prefix.count - connector.count, indent: body + "  ", style: style)
                output(prefix + connector + head.joined(separator: "\n") + "\n")
                for textLine in text(message, indent: body + "  ") { output(textLine + "\n") }
            }
            openLevels.append(!isLast[position])
        }
    }

    /// The root, the path from it to `focus` collapsed into one line (its parent drawn), then
    /// `focus` and its replies down to --max-depth below it; what else the conversation holds is
    /// counted.
    private func renderFocused(_ focus: Int, style: TextStyle, output: (String) -> Void) {
        let line = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        var path: [Int] = []  // the ancestors between the root and focus, nearest first
        var cursor = view.parentIndex(at: focus)
        while let index = cursor, view.parentIndex(at: index) != nil {
            path.append(index)
            cursor = view.parentIndex(at: index)
        }
        let depth = view.depth(at: focus)
        var shown: [(index: Int, depth: Int)] = [(0, 0)]
        let parent = path.first
        let between = path.count - (parent == nil ? 0 : 1)
        var subtree: [(index: Int, depth: Int)] = []
        var index = focus
        repeat {
            let relative = view.depth(at: index) - depth
            if relative <= maxDepth { subtree.append((index, relative + 2)) }
            index += 1
        } while index < view.count && view.depth(at: index) > depth
        draw(shown, style: style, output: output)
        if between > 0 {
            let first = line(view.uid(at: path[path.count - 1])), lastUid = line(view.uid(at: path[1]))
            let span = between == 1 ? "uid \(first)" : "uids \(first) \(ascii ? "..." : "…") \(lastUid)"
            output(style.dim("\(ascii ? ":" : "⋮") \(between) message\(between == 1 ? "" : "s") on the way (\(span)): --max-depth \(depth) draws them") + "\n")
        }
        shown = (parent.map { [($0, 1)] } ?? []) + subtree
        draw(shown, style: style, output: output)
        let others = view.count - 1 - path.count - subtree.count
        if others > 0 { output(style.dim("\(ascii ? "..." : "…") \(others) other messages of the conversation not drawn (--flat lists them)") + "\n") }
    }
}
