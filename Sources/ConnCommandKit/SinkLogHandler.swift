import Foundation
import ConnCore
import Logging

/// A swift-log handler that writes `conn: debug: …` lines to the command's stderr sink, so
/// `-v` output goes where diagnostics belong and tests can capture it.
public struct SinkLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let sink: any OutputSink

    public init(sink: any OutputSink, level: Logger.Level) {
        self.sink = sink
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let details = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        // Log lines quote URLs, headers and errors from the wire: sanitised like every diagnostic.
        sink.write("conn: \(event.level): \(TerminalSanitizer.sanitize("\(event.message)\(details)", keepNewlines: false))\n", to: .standardError)
    }
}
