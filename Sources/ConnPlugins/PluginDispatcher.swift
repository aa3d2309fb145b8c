import ConnCommandKit

/// Decides, before ArgumentParser sees the command line, whether it names an external plugin.
///
/// The rules, as git and kubectl have them: built-in commands always win; for `conn a b c` the
/// longest existing `conn-a-b-c`, `conn-a-b`, `conn-a` wins; help, version and completion
/// requests are never dispatched; global options may stand before the plugin's name.
public struct PluginDispatcher: Sendable {
    public let builtInNames: Set<String>
    public let locator: PluginLocator

    public init(builtInNames: Set<String>, locator: PluginLocator) {
        self.builtInNames = builtInNames
        self.locator = locator
    }

    public func resolve(_ arguments: [String]) -> PluginInvocation? {
        // Skip the global options that may precede the command's name (help, version and
        // unknown options stop it: ArgumentParser answers or reports those).
        guard let index = GlobalOptions.leadingOptionCount(arguments), index < arguments.count else { return nil }
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
