import ConnCommandKit
import ConnCore
import Foundation

/// `conn probe --each-interface`: the targets probed over every usable interface at once (up,
/// with an address that is not link-local, not loopback), each probe bound to its interface —
/// which way out works, and what it costs. The state is online when every target answers over
/// at least one interface.
struct EachInterfaceProbe {
    let targets: [ProbeTarget]
    let configuration: ConnConfiguration
    let expectation: Prober.Expectation
    let concurrency: Int

    /// The interfaces a probe can go out of.
    static func usable(_ interfaces: [LocalInterface] = LocalInterface.current()) -> [LocalInterface] {
        interfaces.filter { $0.up && !$0.loopback && !$0.usableAddresses.isEmpty }
    }

    func run(in context: CommandContext) async throws {
        let interfaces = Self.usable()
        guard !interfaces.isEmpty else {
            let all = LocalInterface.current().map(\.name).joined(separator: ", ")
            throw ConnError.unavailable(.unreachable, "--each-interface: no interface is up with an address (besides loopback)",
                                        hint: "Interfaces here: \(all.isEmpty ? "none" : all). Probe without --each-interface to see why.")
        }
        let classifier = InterfaceClassifier()
        let family = configuration.egress.family
        // Every interface at once: the run takes as long as the slowest way out, not their sum.
        let rows = await withTaskGroup(of: (Int, [ProbeResult]).self) { group in
            for (index, interface) in interfaces.enumerated() {
                group.addTask {
                    let prober = Prober(timeout: configuration.timeout, trust: configuration.serverTrust, expectation: expectation,
                                        credentials: configuration.credentials, classifier: classifier, proxies: configuration.proxy,
                                        egress: Egress(interface: interface.name, family: family))
                    let results = await ProbeRunner(prober: prober, concurrency: concurrency).probeAll(targets)
                    // A probe that failed before its route rung has no interface yet: it is this one.
                    let kind = classifier.kind(of: interface.name)
                    return (index, results.map { result in
                        var result = result
                        if result.interface?.name != interface.name {
                            result.interface = ProbeInterface(name: interface.name, kind: kind, expensive: kind.isExpensive,
                                                              sourceAddress: result.interface?.sourceAddress ?? interface.usableAddresses[0])
                        }
                        return result
                    })
                }
            }
            var rows: [(Int, [ProbeResult])] = []
            for await row in group { rows.append(row) }
            return rows.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
        ProbeJournal.shared.record(rows)
        // Per target, its best way out: a reachable one if any.
        let best = targets.indices.map { index in
            let own = stride(from: index, to: rows.count, by: targets.count).map { rows[$0] }
            return own.first(where: \.reachable) ?? own[0]
        }
        let state = ConnectivityCheck.Snapshot(judging: best, internet: nil, classifier: classifier, internetRequired: false).networkState
        let report = EachInterfaceReport(report: ProbeReport(state: state, results: rows, allReachable: state.state == .online, attempts: nil,
                                                             connectivity: nil, showLadder: context.verbosity == .verbose),
                                         targets: targets.count)
        try context.printer.emit(report)
        if state.state != .online { context.setExitCode(ExitStatus.unavailable.rawValue) }
    }
}

/// The table `--each-interface` prints: a row per interface (and target), with the kind, whether
/// it is metered, the family the connection used, the verdict and the rungs' times. JSON is
/// `conn probe`'s own (each result names its interface).
struct EachInterfaceReport: Encodable, TextRenderable, SchemaVersioned {
    static let schemaVersion = ProbeReport.schemaVersion
    let report: ProbeReport
    let targets: Int

    func encode(to encoder: any Encoder) throws { try report.encode(to: encoder) }

    func renderText(style: TextStyle) -> String {
        let phases = ["dns", "tcp", "proxy", "tls", "http"]
        let used = phases.filter { phase in report.results.contains { $0.rungs.contains { $0.name == phase && $0.ok && ($0.ms ?? 0) > 0 } } }
        var header = (targets > 1 ? ["TARGET"] : []) + ["INTERFACE", "KIND", "METERED", "FAMILY", "VERDICT", "TOTAL"]
        header += used.map { $0.uppercased() }
        var rows: [[String]] = []
        var colours: [Bool] = []
        for result in report.results {
            var row = targets > 1 ? [TerminalSanitizer.sanitize(result.target, keepNewlines: false)] : []
            let interface = result.interface
            row.append(TerminalSanitizer.sanitize(interface?.name ?? "?", keepNewlines: false))
            row.append(interface?.kind.rawValue ?? "unknown")
            row.append(interface?.expensive == true ? "yes" : "no")
            row.append(result.address.map { $0.contains(":") ? "IPv6" : "IPv4" } ?? "—")
            row.append(result.reachable ? "reachable" : result.verdict)
            row.append(result.reachable ? TimeFormatting.duration(milliseconds: result.totalMs) : "—")
            for phase in used {
                let rung = result.rungs.last { $0.name == phase && $0.ok }
                row.append(rung?.ms.map { TimeFormatting.duration(milliseconds: $0) } ?? "—")
            }
            rows.append(row)
            colours.append(result.reachable)
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padded(to: $1) }.joined(separator: "  ").trimmingBlanks()
        }
        var text = style.bold(line(header)) + "\n"
        for (row, reachable) in zip(rows, colours) {
            let plain = line(row)
            text += (reachable ? plain : style.red(plain)) + "\n"
        }
        for result in report.results where !result.reachable {
            text += style.dim("\(result.interface?.name ?? "?"): \(TerminalSanitizer.sanitize(result.explanation, keepNewlines: false))") + "\n"
        }
        if report.state.state != .online {
            text += "\(style.bold("state")): \(style.red(report.state.summary))\n"
        }
        return text
    }
}
