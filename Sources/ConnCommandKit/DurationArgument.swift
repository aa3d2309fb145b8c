import ArgumentParser
import ConnCore

/// A duration on the command line: `500ms`, `5s`, `2m`, `1h`, `7d`, or seconds (`10`, `2.5`), at
/// most 3650 days. ArgumentParser parses and checks it once, before the command runs; the
/// command reads `.duration`, and help and messages show the value as it was written.
///
/// Two bounds, because zero means something only for some options: `PositiveDuration` for
/// timeouts, waits and intervals, `NonNegativeDuration` where 0 is a value (`--grace 0`: report
/// at once; `clock-offset --interval 0`: back to back).
public struct BoundedDuration<Bound: DurationBound>: ExpressibleByArgument, ExpressibleByStringLiteral, CustomStringConvertible,
    Sendable, Equatable
{
    public let duration: Duration
    /// The text as written (`30s`), for help's "default:" and for messages.
    public let description: String

    public init?(argument: String) {
        guard let duration = DurationParser.parse(argument), duration > .zero || (Bound.allowsZero && duration == .zero) else {
            return nil
        }
        self.duration = duration
        self.description = argument
    }

    /// A default written in the source (`var interval: PositiveDuration = "30s"`).
    public init(stringLiteral text: String) {
        guard let value = Self(argument: text) else { preconditionFailure("'\(text)' is not a valid default duration") }
        self = value
    }

    public var defaultValueDescription: String { description }
}

/// Whether a `BoundedDuration` may be zero.
public protocol DurationBound: Sendable {
    static var allowsZero: Bool { get }
}

public enum MoreThanZero: DurationBound {
    public static let allowsZero = false
}

public enum ZeroOrMore: DurationBound {
    public static let allowsZero = true
}

/// More than zero: timeouts, waits, check intervals.
public typealias PositiveDuration = BoundedDuration<MoreThanZero>
/// Zero or more.
public typealias NonNegativeDuration = BoundedDuration<ZeroOrMore>

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
