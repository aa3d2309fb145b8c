import ConnAgent
import ConnCommandKit
import ConnCore
import Dispatch
import Foundation
import Synchronization

/// `conn top`'s loop: samples in from the source (any thread), keys and signals in on the view's
/// own thread, which alone touches the terminal. Draws at least once a second, and at once on a
/// key, a resize or a sample; ends on q or a signal, always through `CursesDisplay.end()`.
struct TopView {
    let context: CommandContext
    let server: String?

    /// What reaches the view's thread from elsewhere.
    private final class Mailbox: Sendable {
        let samples = Mutex<[TopSample]>([])
        let notes = Mutex<[String]>([])
        let signal = Mutex<Int32?>(nil)
        let agentLost = Mutex(false)
    }

    /// Runs until q or a signal; the exit code (0, or 128 + the signal).
    typealias OwnMonitor = @Sendable (@escaping @Sendable (TopSample) -> Void) throws -> LiveTopSource

    func run(agent status: AgentStatus?, ownMonitor: @escaping OwnMonitor) async throws -> Int32 {
        let mailbox = Mailbox()
        let onSample: @Sendable (TopSample) -> Void = { sample in mailbox.samples.withLock { $0.append(sample) } }
        var source: any TopSource
        if let status {
            source = AgentTopSource(place: context.agentPlace, first: status, onSample: onSample) {
                mailbox.agentLost.withLock { $0 = true }
            }
        } else {
            source = try ownMonitor(onSample)
        }

        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        let sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            let signalSource = DispatchSource.makeSignalSource(signal: number, queue: .global())
            signalSource.setEventHandler { mailbox.signal.withLock { $0 = $0 ?? number } }
            signalSource.resume()
            return signalSource
        }
        defer { sources.forEach { $0.cancel() } }

        let colors = context.printer.outputStyle.enabled
        let unicode = context.terminal.isUTF8
        let server = server, sourceName = source.name, environment = context.environment
        let current = Mutex<any TopSource>(source)
        let code: Int32 = try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                var model = TopModel()
                model.server = server
                model.source = sourceName
                guard let display = CursesDisplay(colors: colors, waitMilliseconds: 200) else {
                    continuation.resume(throwing: ConnError.usage("conn top cannot drive this terminal (TERM=\(environment["TERM"] ?? "unset"))",
                                                                  hint: "Set TERM to your terminal's type, or use `conn watch`."))
                    return
                }
                var lastDraw = Date.distantPast
                var dirty = true
                while true {
                    if let number = mailbox.signal.withLock({ $0 }) {
                        display.end()
                        continuation.resume(returning: 128 + number)
                        return
                    }
                    if mailbox.agentLost.withLock({ let lost = $0; $0 = false; return lost }) {
                        do {
                            let own = try ownMonitor(onSample)
                            current.withLock { $0 = own }
                            model.source = own.name
                            model.sourceNote = "the agent stopped answering: conn top watches with a monitor of its own"
                            model.event(at: Date(), "the agent stopped answering; watching on top's own")
                        } catch {
                            model.sourceNote = "the agent stopped answering, and no monitor of top's own could start"
                        }
                        dirty = true
                    }
                    for sample in mailbox.samples.withLock({ let taken = $0; $0 = []; return taken }) {
                        model.apply(sample)
                        dirty = true
                    }
                    if dirty || Date().timeIntervalSince(lastDraw) >= 1 {
                        let size = display.size
                        display.draw(TopScreen(columns: size.columns, rows: size.rows, unicode: unicode).render(model, now: Date()))
                        lastDraw = Date()
                        dirty = false
                    }
                    switch display.readKey() {
                    case .quit:
                        display.end()
                        continuation.resume(returning: 0)
                        return
                    case .pause:
                        model.paused.toggle()
                        model.event(at: Date(), model.paused ? "paused (p resumes)" : "resumed")
                        dirty = true
                    case .probeNow:
                        current.withLock { $0 }.probeNow()
                        model.event(at: Date(), "probing now")
                        dirty = true
                    case .up:
                        model.select(-1)
                        dirty = true
                    case .down:
                        model.select(1)
                        dirty = true
                    case .resized:
                        dirty = true
                    case nil:
                        break
                    }
                }
            }
            thread.name = "conn-top-view"
            thread.start()
        }
        await current.withLock { $0 }.stop()
        return code
    }
}
