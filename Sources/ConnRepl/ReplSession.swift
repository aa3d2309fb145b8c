import ConnCommandKit
import ConnCore
import ConnLive
import ConnOutbox
import ConnProbe
import Foundation
import Synchronization

/// One `conn repl`: reads lines, runs the REPL's own words and conn's commands in-process, and
/// keeps the connection status in the prompt, with seed 001's warning rule for the banner.
final class ReplSession: Sendable {
    static let builtIns = ["ack", "clear", "connect", "disconnect", "exit", "help", "quit", "refresh", "stats", "status"]

    private struct State {
        var status: ReplStatus?
        var rule = WarningRule()
        var lastExitCode: Int32 = 0
    }

    private let context: CommandContext
    private let host: ReplHost
    /// What commands typed here run with: the process's environment and the REPL's flags.
    private let environment: [String: String]
    private let check: ConnectivityCheck
    private let interval: Duration
    private let link: BackEndLink?
    private let state = Mutex(State())
    private let running = Mutex<Task<Int32, Never>?>(nil)
    private let monitor = Mutex<ReplStatusTracker?>(nil)
    private let editor = Mutex<LineEditor?>(nil)
    private let startWithLink: Bool

    init(context: CommandContext, host: ReplHost, environment: [String: String], check: ConnectivityCheck, interval: Duration,
         link: BackEndLink?, startWithLink: Bool) {
        self.startWithLink = startWithLink
        self.context = context
        self.host = host
        self.environment = environment
        self.check = check
        self.interval = interval
        self.link = link
    }

    private var style: TextStyle { context.printer.outputStyle }

    /// Runs until `exit`, Ctrl-D or the end of the input; returns the exit code (`exit N`, else
    /// the last command's).
    func run() async -> Int32 {
        ProbeJournal.shared.enable()  // `stats` sums up the session's probes
        let interactive = context.terminal.standardInputIsTerminal && context.terminal.standardOutputIsTerminal
        if interactive {
            await runInteractive()
        } else {
            await runPlain()
        }
        await monitor.withLock({ $0 })?.stop()
        return state.withLock { $0.lastExitCode }
    }

    // MARK: Reading

    private func runInteractive() async {
        let lookups = LocalLookups(environment: context.environment, configFile: context.configuration.configFile, inbox: context.configuration.url(for: .inbox))
        let tree = (try? CommandTree(dumpHelpJSON: host.commandTreeJSON())) ?? CommandTree(name: "conn")
        let completer = Completer(tree: tree, builtIns: Self.builtIns, uids: lookups.inboxUIDs, outboxIDs: lookups.outboxIDs)
        let historyFile = prepareHistoryFile()
        let lineEditor = LineEditor(prompt: prompt(for: nil), historyFile: historyFile, completer: completer.candidates(for:)) { [weak self] in
            self?.cancelRunningCommand()
        }
        editor.withLock { $0 = lineEditor }
        // Interactive, the REPL delivers the outbox while the server is reachable.
        startMonitor(delivering: true)
        print("conn repl: conn's commands without the `conn`; `help` for the REPL's own; Ctrl-D to leave.")
        var unfinished: String?  // the lines so far of a command with an open quote
        while true {
            let line: String
            switch await lineEditor.read(continuationPrompt: unfinished.map { _ in continuationPrompt }) {
            case .line(let next):
                line = unfinished.map { ShellTokenizer.continuing($0, with: next) } ?? next
            case .interrupted:
                unfinished = nil
                continue
            case .endOfInput:
                guard let open = unfinished else { return }
                abandon(open)
                unfinished = nil
                continue
            }
            if ShellTokenizer.isUnfinished(line) {
                unfinished = line
                continue
            }
            unfinished = nil
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { lineEditor.addToHistory(line) }
            if await execute(line) { return }
            // The line may have queued a message (`send` while the server was away).
            if state.withLock({ $0.status?.hasConnection }) == true { monitor.withLock { $0 }?.requestDelivery() }
        }
    }

    private func runPlain() async {
        var unfinished: String?
        while let next = await Self.readLineOffThePool() {
            let line = unfinished.map { ShellTokenizer.continuing($0, with: next) } ?? next
            if ShellTokenizer.isUnfinished(line) {
                unfinished = line
                continue
            }
            unfinished = nil
            if await execute(line) { return }
        }
        if let open = unfinished { abandon(open) }
    }

    /// "…› ": the prompt of the next line of a command whose quote is still open.
    private var continuationPrompt: String {
        context.terminal.isUTF8 ? "…› " : "...> "
    }

    /// Reports a command that input ended in the middle of (an open quote), as the error it is.
    private func abandon(_ text: String) {
        do {
            _ = try ShellTokenizer.split(text)
        } catch {
            context.printer.error(.usage("the input ended inside the command: " + error.description))
        }
        finish(64)
    }

    /// Blocking reads stay off Swift's cooperative threads (there may be only two).
    private static func readLineOffThePool() async -> String? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: readLine(strippingNewline: true)) }.start()
        }
    }

    private func prepareHistoryFile() -> String? {
        let paths = context.configuration.paths
        do {
            try FileManager.default.createDirectory(atPath: paths.stateDirectory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            return paths.historyFile
        } catch {
            context.printer.warning("history is not kept: cannot create \(paths.stateDirectory): \(error.localizedDescription)")
            return nil
        }
    }

    // MARK: Status

    /// Starts the live session. `delivering`: it also delivers the outbox while the server is
    /// reachable — when there is a server and no agent runs for the database (the agent delivers
    /// then).
    private func startMonitor(delivering: Bool) {
        var parts = LiveSession.Parts(check: check, interval: interval, grace: .zero, link: link)
        parts.linkEnabled = startWithLink
        if delivering, let backEnd = context.configuration.backEnd, context.runningAgent == nil, let store = try? context.openOutbox() {
            parts.delivery = LiveSession.Delivery(store: store, url: backEnd.url(for: .messages))
        }
        let monitor = ReplStatusTracker(parts: parts, configuration: context.configuration, logger: context.logger) { [self] status in
            statusChanged(status)
        } onOutbox: { [weak self] pass in
            guard pass.tally.attempted > 0 || pass.failure != nil, let editor = self?.editor.withLock({ $0 }) else { return }
            let summary = WatchOutboxSummary(pass)
            let text = "outbox: " + summary.line
            editor.announce(summary.error == nil ? text : self?.style.red(text) ?? text)
        } onPath: { [weak self] path in
            // As NWPathMonitor's update: the way out moved (to cellular, to a VPN) though the
            // server still answers — what an app uses to hold back a large download.
            guard let self, let editor = self.editor.withLock({ $0 }) else { return }
            editor.announce(path.pathSummary(style: self.style))
        }
        self.monitor.withLock { $0 = monitor }
    }

    /// The monitor, started on first use in plain mode (scripts that never ask pay nothing).
    private func currentMonitor() -> ReplStatusTracker {
        if let monitor = monitor.withLock({ $0 }) { return monitor }
        startMonitor(delivering: false)
        return monitor.withLock { $0! }
    }

    private func statusChanged(_ status: ReplStatus) {
        let (showWarning, recovered) = state.withLock { state in
            let wasConnected = state.status?.hasConnection
            state.status = status
            let show = status.hasConnection.map { state.rule.apply(.connection($0)) } ?? false
            return (show, wasConnected == false && status.hasConnection == true)
        }
        guard let editor = editor.withLock({ $0 }) else { return }
        editor.setPrompt(prompt(for: status))
        if showWarning { editor.announce(banner(for: status)) }
        if recovered { editor.announce(style.green("✓ connected to the server again")) }
    }

    /// "conn online › ", the state coloured (readline is told the escapes take no room).
    func prompt(for status: ReplStatus?) -> String {
        // Not known yet: an ellipsis, in ASCII where the terminal is not UTF-8.
        let word = status?.state == nil ? (context.terminal.isUTF8 ? "…" : "...") : status?.promptWord ?? "..."
        var colored = word
        if style.enabled {
            let code = status?.state == .online ? "32" : status?.state == nil ? "2" : "31"
            colored = "\u{1}\u{1B}[\(code)m\u{2}\(word)\u{1}\u{1B}[0m\u{2}"
        }
        let connecting = status.map { $0.linkEnabled && ($0.link?.isInitializing ?? false) } == true ? " (connecting)" : ""
        return "conn \(colored)\(connecting) \(context.terminal.isUTF8 ? "›" : ">") "
    }

    private func banner(for status: ReplStatus) -> String {
        let text = status.network?.banner ?? "Not connected to the server."
        return style.red(style.bold("▌ " + text)) + style.dim("  (`ack` hides this, `status` tells more)")
    }

    // MARK: Running a line

    /// Runs one line; returns true when the REPL should end.
    private func execute(_ line: String) async -> Bool {
        var words: [String]
        do {
            words = try ShellTokenizer.split(line)
        } catch {
            context.printer.error(.usage(error.description))
            finish(64)
            return false
        }
        if words.first == "conn" { words.removeFirst() }
        guard let first = words.first else { return false }
        switch first {
        case "exit", "quit":
            if words.count > 1 {
                guard let code = Int32(words[1]), (0...255).contains(code) else {
                    context.printer.error(.usage("\(first) '\(words[1])': give an exit code from 0 to 255"))
                    finish(64)
                    return false
                }
                finish(code)
            }
            return true
        case "help" where words.count == 1:
            print(Self.helpText(width: TerminalSize.columns(environment: context.environment)))
            finish(0)
        case "clear" where words.count == 1:
            // The screen cleared and the cursor home, as clear(1) and Ctrl-L do; nothing when not a terminal.
            if context.terminal.standardOutputIsTerminal { context.printer.write("\u{1B}[H\u{1B}[2J") }
            finish(0)
        case "help":
            finish(await runCommand(Array(words.dropFirst()) + ["--help"]))
        case "ack":
            state.withLock { _ = $0.rule.apply(.acknowledge) }
            if wantsJSON(words) {
                emitJSON(currentMonitor().current)
            } else {
                print("Warning acknowledged: it stays hidden until the connection comes back and drops again, or `refresh`.")
            }
            finish(0)
        case "refresh":
            state.withLock { _ = $0.rule.apply(.refresh) }
            let status = await currentMonitor().refresh()
            statusChanged(status)
            if wantsJSON(words) {
                emitJSON(status)
            } else {
                // A refresh while still offline warns again (the acknowledgement was reset).
                if status.hasConnection == false, editor.withLock({ $0 }) != nil, state.withLock({ $0.rule.showsWarning }) {
                    print(banner(for: status))
                }
                print(status.describe(style: style))
            }
            finish(status.hasConnection == false ? 69 : 0)
        case "status":
            // The monitor's own latest status: the one the session holds changes only when
            // the state does, so its "checked … ago" would go stale.
            var status = currentMonitor().current
            if status.state == nil { status = await currentMonitor().refresh() }
            let warning = state.withLock { $0.rule }
            if wantsJSON(words) {
                emitJSON(status)
            } else {
                print(status.describe(style: style))
                if status.hasConnection == false {
                    print("warning: " + (warning.acknowledged ? "acknowledged (`refresh` shows it again)" : "shown"))
                }
            }
            finish(status.hasConnection == false ? 69 : 0)
        case "stats":
            let rest = words.dropFirst().filter { !["--json", "--format=json", "--format", "json"].contains($0) }
            if rest == ["clear"] {
                ProbeJournal.shared.clear()
                if !wantsJSON(words) { print("statistics cleared") }
            } else if !rest.isEmpty {
                context.printer.error(.usage("stats '\(TerminalSanitizer.sanitize(rest.joined(separator: " "), keepNewlines: false))': stats takes no argument but `clear`"))
                finish(64)
                return false
            }
            let summary = ProbeJournal.shared.summary()
            if wantsJSON(words) {
                if let line = try? JSONOutput.encode(summary) { print(line) }
            } else if rest.isEmpty {
                context.printer.write(summary.renderText(style: style))
            }
            finish(0)
        case "connect", "disconnect":
            guard link != nil else {
                context.printer.error(.configuration("no server is configured, so there is no link to \(first)",
                                                     hint: "Start the REPL with --server URL, or set CONN_SERVER."))
                finish(78)
                return false
            }
            let enabled = first == "connect"
            currentMonitor().setLinkEnabled(enabled)
            if wantsJSON(words) {
                // The status as it is once the monitor has taken the switch.
                var status = currentMonitor().current
                status.linkEnabled = enabled
                if !enabled { status.link = nil }
                emitJSON(status)
            } else {
                print(enabled ? "link: connecting…" : "link: off")
            }
            finish(0)
        case "repl":
            context.printer.error(.usage("already in the REPL"))
            finish(64)
        default:
            finish(await runCommand(words))
        }
        return false
    }

    /// Runs a conn command in-process, as its own task so Ctrl-C can cancel it.
    private func runCommand(_ arguments: [String]) async -> Int32 {
        let host = host, environment = environment
        let delivers = monitor.withLock { $0?.delivers ?? false }
        let task = Task {
            await CommandSession.$isEmbedded.withValue(true) {
                await CommandSession.$replDelivers.withValue(delivers) { await host.run(arguments, environment) }
            }
        }
        running.withLock { $0 = task }
        let code = await task.value
        running.withLock { $0 = nil }
        return code
    }

    private func cancelRunningCommand() {
        running.withLock { $0?.cancel() }
    }

    private func finish(_ code: Int32) {
        state.withLock { $0.lastExitCode = code }
    }

    private func print(_ text: String) {
        context.printer.write(text + "\n")
    }

    /// Whether a line's answer is JSON: the REPL's own --json, or the line's (`status --json`).
    private func wantsJSON(_ words: [String]) -> Bool {
        context.configuration.format == .json || words.contains("--json") || words.contains("--format=json")
            || zip(words, words.dropFirst()).contains { $0 == "--format" && $1 == "json" }
    }

    /// A REPL word's answer in JSON: the status after it, the object `status` prints.
    private func emitJSON(_ status: ReplStatus) {
        let report = StatusReport(status: status, warning: state.withLock { $0.rule })
        if let line = try? JSONOutput.encode(report) { print(line) }
    }

    /// The help, its first paragraph wrapped to `width` (the list below is laid out already).
    static func helpText(width: Int) -> String {
        let paragraphs = help.components(separatedBy: "\n\n")
        return ([HelpLayout.wrap(paragraphs[0], width: width, indent: 0)] + paragraphs.dropFirst()).joined(separator: "\n\n")
    }

    static let help = """
        conn's commands run here without the `conn` (`probe`, `inbox list`, `send …`); `help COMMAND` \
        shows a command's help. Quotes and backslashes work as in a shell: a quote left open \
        continues on the next line (…›) until it closes; Ctrl-C abandons it. Tab completes \
        commands, options, uids and outbox ids. conn-NAME plugins run here too, and the REPL \
        goes on when they end.

          status       the connection in full: state, cause, interface, the link to the server
          refresh      check now; shows the warning again if still not connected
          ack          hide the warning until the connection comes back and drops again
          stats        this session's probes summed up per target: loss, min/avg/median/p95/max,
                       jitter, verdicts (as `probe --count` ends); `stats clear` starts over
          connect      hold the live link to the server (on at start unless --no-link)
          disconnect   drop the live link
          clear        clear the screen (also Ctrl-L)
          exit [N]     leave (also quit, Ctrl-D); Ctrl-C clears the line or stops a command
        """
}
