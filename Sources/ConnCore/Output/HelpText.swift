/// A command's discussion, in the shape `--help` prints and scripts/generate-man turns into a
/// man page: the description, then an "Exit codes:" paragraph (EXIT STATUS) and an "Examples:"
/// block (EXAMPLES). One text, so the help and the man page cannot disagree.
public enum HelpText {
    /// A command line and what it does.
    public struct Example: Sendable {
        public let command: String
        public let effect: String

        public init(_ command: String, _ effect: String) {
            self.command = command
            self.effect = effect
        }
    }

    /// - Parameters:
    ///   - description: paragraphs separated by blank lines.
    ///   - exitCodes: `0 …; 69 …` — each code, then what it means, separated by semicolons.
    ///   - examples: at least two real command lines.
    ///   - environment, files: name and meaning (the root command's: every page's ENVIRONMENT
    ///     and FILES).
    public static func discussion(_ description: String, exitCodes: String? = nil, examples: [Example],
                                  environment: [(String, String)] = [], files: [(String, String)] = []) -> String {
        var paragraphs = description.isEmpty ? [] : [description]
        if let exitCodes { paragraphs.append("Exit codes: " + exitCodes + ".") }
        func block(_ title: String, _ items: [(String, String)]) {
            guard !items.isEmpty else { return }
            paragraphs.append(([title + ":"] + items.map { "  \($0.0)\n      \($0.1)" }).joined(separator: "\n"))
        }
        block("Examples", examples.map { ("$ " + $0.command, $0.effect) })
        block("Environment", environment)
        block("Files", files)
        return paragraphs.joined(separator: "\n\n")
    }

    /// Every variable conn reads: the settings' `CONN_*`, and the standard ones.
    public static var environment: [(String, String)] {
        [("CONN_SERVER", "the back end's base URL (as --server)"),
         ("CONN_PROFILE", "the profile of the config file to use (as --profile)"),
         ("CONN_CONFIG", "the config file to read (as --config)")]
            + ConfigSetting.all.map { ($0.environmentVariable, $0.help) }
            + [("CONN_RESOURCES_<NAME>", "a resource's path or URL: HEALTH, INBOX, MESSAGES, TIME, WS, SESSION"),
               ("CONN_PAGER, PAGER", "the pager for text longer than the screen (default: less -FRX); cat or empty: none"),
               ("VISUAL, EDITOR", "the editor of conn send without --text (default: vi)"),
               ("TZ", "the time zone of times in text (--utc for UTC)"),
               ("NO_COLOR", "set (not empty): no colour, unless --color always"),
               ("TERM", "dumb: no colour"),
               ("XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME", "where conn's files are (see Files)"),
               ("PATH", "where plugins (conn-NAME) are looked for, after the plugin directory"),
               ("NIO_SINGLETON_GROUP_LOOP_COUNT", "the event-loop threads for connections (default: one per core, at most 4)")]
    }

    /// Every file conn reads or writes.
    public static let files: [(String, String)] = [
        ("$XDG_CONFIG_HOME/conn/config.yaml", "the config file: settings and profiles (~/.config/conn/config.yaml)"),
        ("$XDG_DATA_HOME/conn/conn.sqlite", "the outbox, the inbox cache, the last clock offset (~/.local/share/conn/conn.sqlite)"),
        ("$XDG_DATA_HOME/conn/sessions/PROFILE.json", "conn login's token for a profile, 0600 (~/.local/share/conn/sessions/)"),
        ("$XDG_STATE_HOME/conn/history", "the REPL's history (~/.local/state/conn/history)"),
        ("$XDG_DATA_HOME/conn/plugins/", "plugins: executables named conn-NAME (~/.local/share/conn/plugins/)"),
    ]
}
