import ArgumentParser
import ConnCore

/// A duration on the command line: `500ms`, `5s`, `2m`, `1h`, `7d`, or seconds (`10`, `2.5`), at
/// most 3650 days. ArgumentParser parses and checks it once, before the command runs; the
/// command reads `.duration`, and help and messages show the value as it was written.
///
/// Two bounds, because zero means something only for some options: `PositiveDuration` for
/// timeouts, waits and intervals, `NonNegativeDuration` where 0 is a value (`--grace 0`: report
/// at once; `clock-offset --interval 0`: back to back). Two concrete types rather than one
/// generic over its bound: ArgumentParser reads each option's type through reflection, and a
/// generic type's requirement (`Bound: DurationBound`) cost every command a walk of the binary's
/// conformance records at start-up (issue 40).
public protocol BoundedDuration: ExpressibleByArgument, ExpressibleByStringLiteral, CustomStringConvertible, Sendable, Equatable {
    /// Whether zero is a value.
    static var allowsZero: Bool { get }
    var duration: Duration { get }
    /// For `init?(argument:)` and `init(stringLiteral:)` only: `duration` is what `text` parsed
    /// to, already checked against the bound.
    init(checked duration: Duration, text: String)
}

extension BoundedDuration {
    public init?(argument: String) {
        guard let duration = DurationParser.parse(argument), duration > .zero || (Self.allowsZero && duration == .zero) else {
            return nil
        }
        self.init(checked: duration, text: argument)
    }

    /// A default written in the source (`var interval: PositiveDuration = "30s"`).
    public init(stringLiteral text: String) {
        guard let value = Self(argument: text) else { preconditionFailure("'\(text)' is not a valid default duration") }
        self = value
    }

    public var defaultValueDescription: String { description }
}

/// More than zero: timeouts, waits, check intervals.
public struct PositiveDuration: BoundedDuration {
    public static let allowsZero = false
    public let duration: Duration
    /// The text as written (`30s`), for help's "default:" and for messages.
    public let description: String

    public init(checked duration: Duration, text: String) {
        self.duration = duration
        self.description = text
    }
}

/// Zero or more.
public struct NonNegativeDuration: BoundedDuration {
    public static let allowsZero = true
    public let duration: Duration
    /// The text as written (`0`, `100ms`), for help's "default:" and for messages.
    public let description: String

    public init(checked duration: Duration, text: String) {
        self.duration = duration
        self.description = text
    }
}

/// A positive duration for an option that may also stand alone (`--wait`, `--wait 5m`).
///
/// ArgumentParser reads a word that does not parse as such an option's value as no value at all
/// (`--wait soon` became "--wait" plus "Unexpected argument 'soon'"), so this type takes any word
/// and the command's `validate()` calls `check(option:)`, whose message says what is wrong.
public struct OptionalValueDuration: ExpressibleByArgument, ExpressibleByStringLiteral, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    private let parsed: PositiveDuration?

    public init(argument: String) {
        description = argument
        parsed = PositiveDuration(argument: argument)
    }

    public init(stringLiteral text: String) {
        self.init(argument: text)
        precondition(parsed != nil, "'\(text)' is not a valid default duration")
    }

    public var defaultValueDescription: String { description }

    /// Throws the usage error for a word that is not a positive duration.
    public func check(option: String) throws {
        guard parsed != nil else {
            throw ValidationError("\(option) '\(description)' is not a positive duration (\(DurationParser.rangeText)); use 30s, 5m or seconds.")
        }
    }

    /// The duration; valid once `check(option:)` has passed (in `validate()`, before `run`).
    public var duration: Duration { parsed?.duration ?? .zero }
}
