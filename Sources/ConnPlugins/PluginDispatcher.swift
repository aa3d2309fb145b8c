import ConnCommandKit

/// Decides, before ArgumentParser sees the command line, whether it names an external plugin.
///
/// The rules, as git and kubectl have them: built-in commands always win; for `conn a b c` the
/// longest existing `conn-a-b-c`, `conn-a-b`, `conn-a` wins; help, version and completion
/// requests are never dispatched; global options may stand before the plugin's name.
public struct PluginDispatcher: Sendable {
    public let builtInNames: Set<String>
    public let locator: PluginLocator

    /// Requests that ArgumentParser must answer itself.
    static let reservedOptions: Set<String> = [
        "-h", "--help", "-help", "--version", "--generate-completion-script", "---completion",
        "--experimental-dump-help",
    ]

    public init(builtInNames: Set<String>, locator: PluginLocator) {
        self.builtInNames = builtInNames
        self.locator = locator
    }

    public func resolve(_ arguments: [String]) -> PluginInvocation? {
        // Skip the global options that may precede the command's name.
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-") {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if Self.reservedOptions.contains(name) { return nil }
            if GlobalOptions.optionsTakingValues.contains(name) {
                index += argument.contains("=") ? 1 : 2
            } else if GlobalOptions.flags.contains(name) {
                index += 1
            } else {
                return nil  // unknown here: let ArgumentParser report it
            }
        }
        guard index < arguments.count else { return nil }
        let first = arguments[index]
        if builtInNames.contains(first) || first == "help" { return nil }

        // The words that could form the plugin's name: up to the first option.
        var words: [String] = []
        for argument in arguments[index...] {
            if argument.hasPrefix("-") { break }
            words.append(argument)
        }
        for count in stride(from: words.count, through: 1, by: -1) {
            let name = words[..<count].joined(separator: "-")
            if let path = locator.find(name) {
                return PluginInvocation(
                    name: name, path: path, leadingOptions: Array(arguments[..<index]),
                    arguments: Array(arguments[(index + count)...]))
            }
        }
        return nil
    }
}
