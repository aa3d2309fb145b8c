import ArgumentParser

/// A command that runs another command given after `--` (`conn probe host:80 -- make test`).
///
/// ArgumentParser cannot declare this beside an array of targets (its validator refuses a
/// `.postTerminator` array after another positional array), so the entry point splits the command
/// line at the first `--` and hands the tail over through this property.
public protocol TrailingCommandAccepting: ParsableCommand {
    var trailingCommand: [String] { get set }
}

public enum TrailingCommandParser {
    /// Parses `arguments` with `root`; a command that accepts a trailing command gets what follows
    /// the first `--`. For every other command `--` keeps its usual meaning.
    public static func parse<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) throws -> any ParsableCommand {
        guard let separator = arguments.firstIndex(of: "--") else { return try root.parseAsRoot(arguments) }
        let head = Array(arguments[..<separator])
        let tail = Array(arguments[(separator + 1)...])
        if var accepting = (try? root.parseAsRoot(head)) as? any TrailingCommandAccepting {
            guard !tail.isEmpty else { throw ValidationError("nothing follows '--': give the command to run after it") }
            accepting.trailingCommand = tail
            return accepting
        }
        return try root.parseAsRoot(arguments)
    }
}
