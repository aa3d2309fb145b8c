import ConnCore
import Foundation

/// Thrown by a long-running command that has stopped cleanly on SIGINT or SIGTERM and printed its
/// last line: unwinding (rather than calling `exit`) lets every `defer` and awaited clean-up run,
/// and the runner turns it into 130 or 143 without printing anything more.
public struct StoppedBySignal: Error, Sendable {
    public let signal: Int32

    public init(signal: Int32) { self.signal = signal }

    public var exitStatus: ExitStatus { signal == SIGINT ? .interrupted : .terminated }
}
