import ArgumentParser

/// An enum of named values (`--format json`, `--color never`) as an argument. ArgumentParser's
/// defaults for such a type list its values through a key path made at run time and describe
/// each through `print`, whose casts each walk the binary's conformance records: every command
/// paid that at start-up for `--format` and `--color` (issue 40). These say the same thing
/// directly: the raw value is the name, and no value has a description of its own.
public protocol NamedValueArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension NamedValueArgument {
    public var defaultValueDescription: String { rawValue }

    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }

    public static var allValueDescriptions: [String: String] { [:] }
}
