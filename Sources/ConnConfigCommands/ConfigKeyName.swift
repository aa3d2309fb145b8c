import ArgumentParser
import ConnCore

/// A key as `config get` and `config set` take it: `server`, `timeout`, `resources.inbox`,
/// `profile`… — the keys the loader reads, spelled as in the file.
struct ConfigKeyName: ExpressibleByArgument, Sendable, Equatable {
    /// The key's path in the file (`["resources", "inbox"]`).
    let components: [String]

    var dotted: String { components.joined(separator: ".") }

    /// Every key, for help and completion.
    static var all: [String] {
        ConfigKeys.settings + ["profile"] + ConfigKeys.resources.map { "resources.\($0)" }
    }

    init?(argument: String) {
        guard Self.all.contains(argument) else { return nil }
        components = argument.split(separator: ".").map(String.init)
    }

    /// The message for a key that is not one: with the closest known key.
    static func problem(with argument: String) -> String {
        let suggestion = Suggestions.closest(to: argument, among: all).map { " (did you mean '\($0)'?)" } ?? ""
        return "'\(argument)' is not a configuration key\(suggestion); keys: \(all.joined(separator: ", "))"
    }

    static var defaultCompletionKind: CompletionKind { .list(all) }
}

/// The KEY argument of `config get` and `config set`: an unknown key is refused with the closest
/// known one.
struct ConfigKeyArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The key: server, email, token, timeout, format, color, insecure, caCert, utc, outboxExpiry, outboxKeepSent, chronySocket, chronyMaxUncertainty, cacheLimit, sync, pluginsWithToken, internetCheck, profile, resources.NAME.", valueName: "key"),
              completion: .list(ConfigKeyName.all),
              transform: { text in
                  guard let key = ConfigKeyName(argument: text) else { throw ValidationError(ConfigKeyName.problem(with: text)) }
                  return key
              })
    var key: ConfigKeyName
}
