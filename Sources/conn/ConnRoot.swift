import ArgumentParser
import ConnCommandKit
import ConnCore

/// `conn`: the root of the command tree. It has no work of its own; without a subcommand it
/// prints its help.
struct ConnRoot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conn",
        abstract: "A connectivity toolkit for apps that depend on a back end.",
        discussion: HelpText.discussion(
            """
            Global options (--server, --profile, --config, --format/--json, --timeout, --color, \
            --insecure, -v, -q) go before or after the command's name: `conn --json config show` \
            or `conn config show --json`. With --format json an error is one JSON object on \
            stderr: {"error":{"code","message","hint","exitCode"}}.

            An executable conn-NAME on PATH or in $XDG_DATA_HOME/conn/plugins runs as `conn NAME` \
            (see `conn plugins list`). Exit codes follow sysexits(3).
            """,
            exitCodes: """
                0 ok; 1 a key without a value in `conn config get` (as git config); 64 usage error; 65 bad data; \
                66 input file missing or unreadable; 69 unavailable (unreachable, refused); 70 internal error; \
                74 local I/O error (disk full, a directory that cannot be created); 75 temporary failure \
                (timeout, database locked: try again); 77 permission or authentication refused; \
                78 configuration error; 129 stopped by SIGHUP (top); 130 stopped by SIGINT, Ctrl-C (watch, top); \
                143 stopped by SIGTERM (watch, top; the agent ends with 0); a plugin and `probe -- COMMAND` \
                end with that program's own code
                """,
            examples: [
                .init("conn probe", "Is the configured server reachable, and if not, which layer fails."),
                .init("conn --json watch --until online --timeout 2m", "Wait for the server, for a script."),
                .init("conn send --to ann@example.com --subject Hi --text 'On my way'", "Send now, or as soon as the server is back."),
            ],
            environment: HelpText.environment,
            files: HelpText.files),
        version: VersionInfo.current.text,
        subcommands: BuiltInModules.commands)

    /// Declared here too so that the completion scripts know them before a command's name:
    /// `conn --profile <Tab>` completes a profile, not a command. (The entry point moves them
    /// after the name, where each command reads them.)
    @OptionGroup(title: "Global options") var global: GlobalOptions
}
