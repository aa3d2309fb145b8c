import ConnCommandKit
import ConnCore
import Foundation

/// What `conn probe` prints (docs/json/probe.schema.json): the state in the keys every command
/// uses, then one line per target (a compact httpstat), the ladder with -v. A target's
/// `verdict` is its own word; the state is what they add up to (`NetworkState` rules).
struct ProbeReport: Encodable, TextRenderable, SchemaVersioned {
    static let schemaVersion = 2

    let state: NetworkState
    let results: [ProbeResult]
    let allReachable: Bool
    /// Set by --wait: how many rounds it took.
    let attempts: Int?
    let connectivity: InternetVerdict?
    let showLadder: Bool
    /// `--count`: each target's attempts summed up; the state and results are the last round's.
    var statistics: [ProbeStatistics]?
    /// `--count --all-attempts`: every round's results.
    var allAttempts: [[ProbeResult]]?

    private enum CodingKeys: String, CodingKey { case results, allReachable, attempts, connectivity, statistics, allAttempts }

    func encode(to encoder: any Encoder) throws {
        try state.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(results, forKey: .results)
        try container.encode(allReachable, forKey: .allReachable)
        try container.encode(attempts, forKey: .attempts)  // null without --wait
        try container.encode(connectivity, forKey: .connectivity)  // null without the internet check
        try container.encode(statistics, forKey: .statistics)  // null without --count
        if let allAttempts { try container.encode(allAttempts, forKey: .allAttempts) }  // only with --all-attempts
    }

    /// The result lines were printed as the targets finished (`ProbeCommand`'s text to a pipe or
    /// a file): the text is then the state line alone, and `results` holds only the results the
    /// verdict read (`ProbeWitnesses`).
    var linesPrinted = false

    func renderText(style: TextStyle) -> String {
        if linesPrinted { return footer(style: style) }
        // One string grown in place: with thousands of results, an array of lines joined at the
        // end cost a copy of every line.
        var text = ""
        text.reserveCapacity(results.count * (showLadder ? 400 : 120))
        text += Self.header(connectivity, style: style)
        // --count: the attempts were printed as they came; the summary per target, as ping ends.
        if let statistics {
            for target in statistics { text += target.renderText(style: style) }
            return text + footer(style: style)
        }
        let names = results.map { TerminalSanitizer.sanitize($0.target, keepNewlines: false) }
        let width = names.map(\.count).max() ?? 0
        for (result, name) in zip(results, names) {
            Self.appendLine(result, name: name, width: width, showLadder: showLadder, style: style, to: &text)
        }
        return text + footer(style: style)
    }

    /// What comes before the targets' lines: the internet check's verdict, when it ran.
    static func header(_ connectivity: InternetVerdict?, style: TextStyle) -> String {
        guard let connectivity else { return "" }
        return "\(style.bold("internet")): \(connectivity.state.name) — \(connectivity.explanation)\n"
    }

    /// The width the targets' names are padded to (the widest, sanitised).
    static func nameWidth(_ targets: [String]) -> Int {
        targets.lazy.map { TerminalSanitizer.sanitize($0, keepNewlines: false).count }.max() ?? 0
    }

    /// Not online: the verdict the lines above add up to, in the words of the JSON's `state`
    /// and `reason` and of `agent status` (the exit status says the same: 69).
    private func footer(style: TextStyle) -> String {
        state.state == .online ? "" : "\(style.bold("state")): \(style.red(state.summary))\n"
    }

    /// One target's line (a compact httpstat), and its ladder with -v; `name` is its target,
    /// sanitised (the caller has it already, for the width).
    static func appendLine(_ result: ProbeResult, name: String, width: Int, showLadder: Bool, style: TextStyle, to text: inout String) {
        text += result.reachable ? style.green("✓") : style.red("✗")
        text += " "
        text += style.bold(name.padded(to: width))
        text += "  "
        if result.reachable {
            text += style.green("reachable")
        } else {
            text += style.red(result.verdict)
            text += " — "
            text += TerminalSanitizer.sanitize(result.explanation, keepNewlines: false)
        }
        var facts: [String] = []
        if let status = result.httpStatus { facts.append("HTTP \(status)") }
        if let redirects = result.response?.redirects, redirects > 0 { facts.append("after \(redirects) redirect\(redirects == 1 ? "" : "s")") }
        for rung in result.rungs where rung.ok && rung.name != "route" {
            if let ms = rung.ms, rung.name != "dns" || ms > 0 { facts.append("\(rung.name) \(TimeFormatting.duration(milliseconds: ms))") }
        }
        if let interface = result.interface {
            facts.append("via \(TerminalSanitizer.sanitize(interface.name, keepNewlines: false)) (\(interface.kind.rawValue)\(interface.expensive ? ", metered" : ""))")
        }
        if !facts.isEmpty {
            text += style.dim("  [" + facts.joined(separator: " · ") + "]")
        }
        text += "\n"
        if showLadder {
            let nameWidth = max(5, result.rungs.map(\.name.count).max() ?? 0)
            for rung in result.rungs {
                let time = rung.ms.map { TimeFormatting.duration(milliseconds: $0) } ?? "—"
                let rungMark = rung.ok ? style.green("ok  ") : style.red("FAIL")
                text += "    \(rung.name.padded(to: nameWidth)) \(rungMark) \(time.padded(to: 9)) \(TerminalSanitizer.sanitize(rung.detail, keepNewlines: false))\n"
            }
        }
    }
}
