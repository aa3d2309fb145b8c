import ConnCommandKit
import ConnCore
import Foundation
import Synchronization

/// `conn probe --count N`: rounds of the same probe, a line per attempt as they come (text), and
/// at the end each target summed up (`ProbeStatistics`). Ctrl-C ends the rounds early and still
/// prints the summary so far, as ping does; the state and the exit status are the last round's.
struct ProbeSeries {
    let runner: ProbeRunner
    let targets: [ProbeTarget]
    /// The internet check's endpoints, when it is asked for (it runs every round).
    let internet: [InternetEndpoint]?
    /// 0: until interrupted.
    let rounds: Int
    let interval: Duration
    let keepAttempts: Bool

    func run(in context: CommandContext) async throws {
        let interrupted = Self.interruptions()
        defer { interrupted.stop() }
        var statistics = targets.map { ProbeStatistics(target: $0.input) }
        var kept: [[ProbeResult]] = []
        var last: (results: [ProbeResult], verdict: InternetVerdict?)?
        var round = 0
        let clock = ContinuousClock()
        // Routes and interfaces are looked up again only after the kernel says they changed.
        let changes = RoutingChanges()
        var routes = runner.prober.newRouteCache()
        while rounds == 0 || round < rounds {
            round += 1
            let started = clock.now
            if changes.needFreshLookups() { routes = runner.prober.newRouteCache() }
            var verdict: InternetVerdict?
            if let internet { verdict = await InternetCheck(prober: runner.prober).run(internet).0 }
            let results = await runner.probeAll(targets, routes: routes)
            for (index, result) in results.enumerated() { statistics[index].add(result) }
            ProbeJournal.shared.record(results)
            if keepAttempts { kept.append(results) }
            if context.configuration.format == .text {
                for result in results { context.printer.write(Self.attemptLine(result, round: round, style: context.printer.outputStyle)) }
                if let verdict { context.printer.write("internet: \(verdict.state.name) (round \(round))") }
            }
            last = (results, verdict)
            if rounds != 0, round >= rounds { break }
            // The pause counts from the round's start, as ping's interval does.
            let resume = started + interval
            while clock.now < resume, !interrupted.happened, !Task.isCancelled {
                try? await Task.sleep(for: min(.milliseconds(100), resume - clock.now))
            }
            if interrupted.happened || Task.isCancelled { break }
        }
        guard let last else { return }
        // The state is the last round's, judged once (the routing table read for its path is
        // not worth reading every round).
        let snapshot = ConnectivityCheck.Snapshot(judging: last.results, internet: last.verdict, classifier: runner.prober.classifier,
                                                  internetRequired: internet != nil)
        let state = snapshot.networkState
        var report = ProbeReport(state: state, results: last.results, allReachable: state.state == .online, attempts: round,
                                 connectivity: last.verdict, showLadder: false)
        report.statistics = statistics
        report.allAttempts = keepAttempts ? kept : nil
        if context.configuration.format == .text { context.printer.write("") }
        try context.printer.emit(report)
        if !report.allReachable { context.setExitCode(ExitStatus.unavailable.rawValue) }
    }

    /// "https://api.example.com/health: reachable 12.3ms (round 3)".
    static func attemptLine(_ result: ProbeResult, round: Int, style: TextStyle) -> String {
        let name = TerminalSanitizer.sanitize(result.target, keepNewlines: false)
        let verdict = result.reachable ? style.green("reachable") : style.red(result.verdict)
        return "\(name): \(verdict) \(TimeFormatting.duration(milliseconds: result.totalMs)) (round \(round))"
    }

    /// Ctrl-C (SIGINT) as a flag the rounds look at, instead of the end of the process; in the
    /// REPL the command's task is cancelled instead, which the rounds look at too.
    final class Interruptions {
        private final class Flag: Sendable {
            let value = Mutex(false)
        }

        private let flag = Flag()
        private let source: (any DispatchSourceSignal)?

        init(watching: Bool) {
            guard watching else {
                source = nil
                return
            }
            signal(SIGINT, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            self.source = source
            source.setEventHandler { [flag] in flag.value.withLock { $0 = true } }
            source.resume()
        }

        var happened: Bool { flag.value.withLock { $0 } }

        func stop() {
            guard let source else { return }
            source.cancel()
            signal(SIGINT, SIG_DFL)
        }
    }

    static func interruptions() -> Interruptions {
        Interruptions(watching: !CommandSession.isEmbedded)
    }
}
