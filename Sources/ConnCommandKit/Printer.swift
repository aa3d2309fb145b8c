import ConnCore
import Foundation

/// Prints command results and diagnostics following conn's output contract:
/// data on stdout, diagnostics on stderr; JSON (one object, or JSON Lines for streams) or text;
/// colour only where wanted.
public struct Printer: Sendable {
    public let sink: any OutputSink
    public let format: OutputFormat
    public let verbosity: Verbosity
    /// Styling for stdout and stderr, each decided for its own stream.
    public let outputStyle: TextStyle
    public let errorStyle: TextStyle
    /// Pretty-print JSON objects when a person is looking at them.
    let prettyJSON: Bool
    /// Where a command's text result goes when it is longer than the screen.
    let pager: Pager?
    let environment: [String: String]

    public init(sink: any OutputSink, format: OutputFormat, verbosity: Verbosity, color: ColorMode,
                terminal: TerminalFacts, environment: [String: String], utc: Bool = false) {
        self.sink = sink
        self.format = format
        self.verbosity = verbosity
        self.outputStyle = TextStyle(enabled: color.enabled(isTerminal: terminal.standardOutputIsTerminal, environment: environment), utc: utc)
        self.errorStyle = TextStyle(enabled: color.enabled(isTerminal: terminal.standardErrorIsTerminal, environment: environment), utc: utc)
        self.prettyJSON = terminal.standardOutputIsTerminal
        // Only a sink that can page does (the real stdout; a test's capture that records it).
        self.pager = sink.pages ? Pager.choose(environment: environment, terminal: terminal, format: format) : nil
        self.environment = environment
    }

    /// Prints a command's result: one JSON object, or its text form.
    public func emit<Payload: Encodable & TextRenderable>(_ payload: Payload) throws {
        switch format {
        case .json: sink.write(try JSONOutput.encode(payload, pretty: prettyJSON) + "\n", to: .standardOutput)
        case .text:
            if pager == nil, let streaming = payload.asStreaming {
                streaming.renderText(style: outputStyle) { sink.write($0, to: .standardOutput) }
            } else {
                writePaged(payload.renderText(style: outputStyle))
            }
        case .prometheus: writePrometheus(payload)
        }
    }

    /// Whether text written now reaches stdout as it is, no pager waiting for the whole of it: a
    /// long report may then be printed as it is made, and let go line by line.
    public var printsTextAsItComes: Bool { format == .text && pager == nil }

    /// A command's whole text result: through the pager when it is longer than the screen.
    private func writePaged(_ text: String) {
        if let pager, pager.isNeeded(for: text),
           sink.page(text.hasSuffix("\n") ? text : text + "\n", with: pager, environment: environment) { return }
        write(text)
    }

    /// The Prometheus text format of a payload that has one (the command runner refuses the
    /// format for commands whose payloads have none; text is the fallback all the same).
    private func writePrometheus(_ payload: some TextRenderable) {
        if let metrics = payload as? any PrometheusRenderable {
            sink.write(metrics.renderPrometheus(), to: .standardOutput)
        } else {
            write(payload.renderText(style: outputStyle))
        }
    }

    /// Prints one event of a stream: a JSON line (flushed at once), or its text form.
    public func emitLine<Payload: Encodable & TextRenderable>(_ payload: Payload) throws {
        switch format {
        case .json: sink.write(try JSONOutput.encode(payload) + "\n", to: .standardOutput)
        case .text: write(payload.renderText(style: outputStyle))
        case .prometheus: writePrometheus(payload)
        }
    }

    /// Bytes on stdout exactly as they are (a fetched body), for a pipe or a file.
    public func write(bytes: Data) {
        sink.write(bytes: bytes, to: .standardOutput)
    }

    /// Plain text data on stdout (text mode helpers).
    public func write(_ text: String) {
        sink.write(text.hasSuffix("\n") || text.isEmpty ? text : text + "\n", to: .standardOutput)
    }

    /// Diagnostics quote servers, files and uids: each is sanitised here, once for every path, so
    /// no escape sequence from outside reaches the terminal through an error or a warning.
    public func warning(_ text: String) {
        guard verbosity > .quiet else { return }
        sink.write("conn: \(errorStyle.yellow("warning:")) \(TerminalSanitizer.sanitize(text))\n", to: .standardError)
    }

    /// Progress and information a person may want, never needed by a script.
    public func note(_ text: String) {
        guard verbosity > .quiet else { return }
        sink.write("conn: \(TerminalSanitizer.sanitize(text))\n", to: .standardError)
    }

    /// Prints an error on stderr: a JSON object in JSON mode, else `conn: error: …` and the hint.
    public func error(_ error: ConnError) {
        switch format {
        case .json:
            let text = (try? JSONOutput.encode(ErrorPayload(error))) ?? #"{"error":{"code":"internal"}}"#
            sink.write(text + "\n", to: .standardError)
        case .text, .prometheus:
            var text = "conn: \(errorStyle.red("error:")) \(TerminalSanitizer.sanitize(error.message))\n"
            if let hint = error.hint { text += "conn: \(TerminalSanitizer.sanitize(hint))\n" }
            sink.write(text, to: .standardError)
        }
    }
}
