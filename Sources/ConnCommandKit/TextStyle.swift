import ConnCore
import Foundation

/// ANSI styling that turns itself off when colour is not wanted.
public struct TextStyle: Sendable {
    public let enabled: Bool
    /// Moments in UTC rather than the local zone (`--utc`).
    public let utc: Bool

    public init(enabled: Bool, utc: Bool = false) {
        self.enabled = enabled
        self.utc = utc
    }

    /// A moment for a person: local time with its zone, or UTC with `--utc`.
    public func moment(_ date: Date, milliseconds: Bool = false) -> String {
        TimeFormatting.moment(date, utc: utc, milliseconds: milliseconds)
    }

    /// A date as a list shows it: short, in the reader's zone (see `TimeFormatting.forPeople`).
    public func forPeople(_ date: Date, now: Date = Date()) -> String {
        TimeFormatting.forPeople(date, now: now, utc: utc)
    }

    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func green(_ text: String) -> String { wrap(text, "32") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// A command result that can print itself for a person. The JSON form comes from `Encodable`.
public protocol TextRenderable {
    func renderText(style: TextStyle) -> String
    /// Itself, when it can be written in pieces (a `StreamingTextRenderable`); nil otherwise.
    /// A requirement rather than an `as?` cast: the printer asks every result, and a cast is a
    /// look-up through all of the binary's conformance records at run time.
    var asStreaming: (any StreamingTextRenderable)? { get }
}

extension TextRenderable {
    public var asStreaming: (any StreamingTextRenderable)? { nil }
}

/// A result long enough to be written in pieces as it is drawn (where no pager needs it whole).
public protocol StreamingTextRenderable: TextRenderable {
    func renderText(style: TextStyle, write: (String) -> Void)
}

extension StreamingTextRenderable {
    public var asStreaming: (any StreamingTextRenderable)? { self }
}
