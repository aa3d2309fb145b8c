import ConnCommandKit
import ConnCore
import Foundation

/// Lays the model out for a terminal of a given size: a list of rows, each a few runs of text
/// with an emphasis. Pure (no terminal), so the layout at 80×24, 10×5 and in ASCII is tested
/// as text. Everything from outside (targets, reasons, interface names) is sanitised here.
struct TopScreen {
    enum Emphasis: Sendable, Equatable {
        case plain, bold, good, bad, warn, dim
    }

    struct Run: Sendable, Equatable {
        var text: String
        var emphasis: Emphasis
    }

    typealias Row = [Run]

    /// The smallest terminal the view fits in.
    static let minimumColumns = 40
    static let minimumRows = 10

    let columns: Int
    let rows: Int
    /// Block characters, arrows and middle dots; else ASCII only.
    let unicode: Bool

    func render(_ model: TopModel, now: Date) -> [Row] {
        guard columns >= Self.minimumColumns, rows >= Self.minimumRows else {
            // Wrapped over the rows there are: even 10×5 reads "terminal / too small …".
            let words = "terminal too small: \(columns)x\(rows), conn top needs \(Self.minimumColumns)x\(Self.minimumRows)".split(separator: " ")
            var lines: [String] = []
            for word in words {
                if let last = lines.last, last.count + 1 + word.count <= columns {
                    lines[lines.count - 1] += " " + word
                } else {
                    lines.append(clip(String(word)))
                }
            }
            return lines.prefix(max(1, rows)).map { [Run(text: $0, emphasis: .bad)] }
        }
        var screen: [Row] = []
        let dot = unicode ? " · " : " | "
        let clock = Self.time(now)
        var title = "conn top" + (model.server.map { "  \(clean($0))" } ?? "") + "  (\(model.source)\(model.paused ? ", paused" : ""))"
        title = clip(title, to: columns - clock.count - 1)
        screen.append([Run(text: title, emphasis: .bold), Run(text: String(repeating: " ", count: max(1, columns - title.count - clock.count)) + clock, emphasis: .plain)])

        // The state, and since when.
        if let network = model.network {
            var state = [Run(text: "state   ", emphasis: .dim), Run(text: network.summary, emphasis: Self.emphasis(network.state))]
            if let since = network.since {
                state.append(Run(text: " since \(Self.time(since)) (\(TimeFormatting.duration(seconds: max(0, now.timeIntervalSince(since)).rounded())))", emphasis: .plain))
            }
            screen.append(state)
            var path = "path    "
            if let interface = network.interface {
                path += "\(clean(interface.name)) (\(interface.kind.rawValue))" + dot + (interface.expensive ? "expensive" : "not expensive")
            } else {
                path += "no interface known"
            }
            path += dot + "IPv4 \(Self.yesNo(network.ipv4))" + dot + "IPv6 \(Self.yesNo(network.ipv6))"
            screen.append([Run(text: clip(path), emphasis: .plain)])
        } else {
            screen.append([Run(text: "state   ", emphasis: .dim), Run(text: "not known yet (the first look is running)", emphasis: .warn)])
            screen.append([Run(text: "path    not known yet", emphasis: .plain)])
        }
        var link = "link    " + (model.link.map { $0.label } ?? "off")
        if let clockReading = model.clock {
            let reading = OffsetWording.value(offsetMs: clockReading.offsetMs, uncertaintyMs: clockReading.uncertaintyMs, plusMinus: unicode ? "±" : "+/-")
            let inStep = OffsetWording.inStep(offsetMs: clockReading.offsetMs, uncertaintyMs: clockReading.uncertaintyMs)
            link += dot + "clock offset " + reading
                + " (\(inStep ? "in step, " : "")measured \(TimeFormatting.ago(seconds: max(0, now.timeIntervalSince(clockReading.measuredAt)))))"
        }
        screen.append([Run(text: clip(link), emphasis: model.link?.isConnected == true ? .plain : .dim)])
        if let outbox = model.outbox {
            let text = "outbox  \(outbox.pending) pending" + dot + "\(outbox.sending) sending" + dot + "\(outbox.sent) sent" + dot + "\(outbox.failed) failed"
            screen.append([Run(text: clip(text), emphasis: outbox.failed > 0 ? .warn : .plain)])
        } else {
            screen.append([Run(text: "outbox  not read", emphasis: .dim)])
        }
        if let note = model.sourceNote { screen.append([Run(text: clip(note), emphasis: .warn)]) }

        // The targets: name, last latency (or verdict), a sparkline of the last looks.
        let rule = String(repeating: unicode ? "─" : "-", count: columns)
        screen.append([Run(text: rule, emphasis: .dim)])
        // Names as wide as the longest needs, leaving the sparkline at least 16 columns.
        let valueWidth = 10
        let longest = model.targets.map { clean($0.name).count }.max() ?? 10
        let nameWidth = max(12, min(longest + 3, columns - valueWidth - 4 - 16))
        let traceWidth = max(0, columns - nameWidth - valueWidth - 4)
        let keysRow: Row = [Run(text: clip(unicode ? "q quit · p pause · r probe now · ↑↓ select" : "q quit | p pause | r probe now | up/down select"), emphasis: .dim)]
        // What is left for targets, their rungs and events: rows less the header, rule, keys.
        let budget = rows - screen.count - 1
        let targetRows = min(model.targets.count, max(1, budget / 2))
        if model.targets.isEmpty {
            screen.append([Run(text: "no look yet", emphasis: .dim)])
        } else {
            let first = max(0, min(model.selected - targetRows + 1, model.targets.count - targetRows))
            for index in first..<(first + targetRows) {
                let target = model.targets[index]
                let marker = index == model.selected ? (unicode ? "▶ " : "> ") : "  "
                // Two spaces at least between a name and its latency, however long the name.
                let name = pad(clip(clean(target.name), to: nameWidth - 3), nameWidth - 2)
                let value = target.last.reachable ? TimeFormatting.duration(milliseconds: target.last.totalMs) : target.last.verdict
                screen.append([Run(text: marker + name + " ", emphasis: index == model.selected ? .bold : .plain),
                               Run(text: pad(clip(value, to: valueWidth), valueWidth), emphasis: target.last.reachable ? .good : .bad),
                               Run(text: " " + Self.sparkline(target.trace, width: traceWidth, unicode: unicode), emphasis: .plain)])
            }
        }
        screen.append([Run(text: rule, emphasis: .dim)])
        // The selected target's rungs.
        if let target = model.selectedTarget {
            let rungs = target.last.rungs.map { rung in
                "\(rung.name) " + (rung.ms.map { TimeFormatting.duration(milliseconds: $0) } ?? "-") + (rung.ok ? "" : " failed")
            }.joined(separator: dot)
            screen.append([Run(text: clip("\(clean(target.last.verdict)): " + rungs), emphasis: target.last.reachable ? .plain : .bad)])
        }
        // The last events, newest last, as many as fit.
        let room = rows - screen.count - 1
        if room > 0 {
            for event in model.events.suffix(room) {
                screen.append([Run(text: clip("\(Self.time(event.at))  " + clean(event.text)), emphasis: .plain)])
            }
        }
        while screen.count < rows - 1 { screen.append([]) }
        screen.append(keysRow)
        return Array(screen.prefix(rows))
    }

    /// A sparkline of the last looks that fit `width`: eight heights scaled to the largest shown
    /// (ASCII: ` .:-=+*#`), `×` (`x`) for a failed look.
    static func sparkline(_ trace: [Double?], width: Int, unicode: Bool) -> String {
        guard width > 0 else { return "" }
        let shown = trace.suffix(width)
        let levels: [Character] = unicode ? ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] : [".", ":", "-", "=", "+", "*", "#", "@"]
        let top = shown.compactMap { $0 }.max() ?? 0
        return String(shown.map { value -> Character in
            guard let value else { return unicode ? "×" : "x" }
            guard top > 0 else { return levels[0] }
            return levels[min(levels.count - 1, Int((value / top * Double(levels.count - 1)).rounded()))]
        })
    }

    static func emphasis(_ state: NetworkStatus) -> Emphasis {
        switch state {
        case .online: .good
        case .offline, .serverUnreachable: .bad
        case .portal: .warn
        }
    }

    static func yesNo(_ value: Bool?) -> String { value.map { $0 ? "yes" : "no" } ?? "?" }

    static func time(_ date: Date) -> String { TimeFormatting.timeOfDay(date) }

    /// Text from outside (or an event's arrow) as this terminal can show it.
    private func clean(_ text: String) -> String {
        let sanitized = TerminalSanitizer.sanitize(text, keepNewlines: false)
        guard !unicode else { return sanitized }
        return String(sanitized.replacingOccurrences(of: "→", with: "->").unicodeScalars.map { $0.isASCII ? Character($0) : "?" })
    }

    private func clip(_ text: String, to width: Int? = nil) -> String {
        let limit = max(0, width ?? columns)
        guard text.count > limit else { return text }
        return limit <= 1 ? String(text.prefix(limit)) : String(text.prefix(limit - 1)) + (unicode ? "…" : "~")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
