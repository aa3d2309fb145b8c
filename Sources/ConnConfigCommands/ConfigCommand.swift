import ArgumentParser
import ConnCore

/// `conn config`: see the configuration conn resolved and where each value came from.
public struct ConfigCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show, set and edit the configuration; list its profiles.",
        discussion: HelpText.discussion(
            """
            Values come from, highest first: flags, CONN_* environment variables, the config \
            file (the selected profile's section, then its top level), defaults. The config file \
            is $XDG_CONFIG_HOME/conn/config.yaml unless --config or CONN_CONFIG names another.
            """,
            exitCodes: "0 its help (with no command); 64 a word that names none of its commands",
            examples: [
                .init("conn config show", "Every setting and where its value came from."),
                .init("conn config init", "A first config file: asks for the server and your e-mail."),
                .init("conn config set timeout 5s --profile work", "One value, the file's comments kept."),
                .init("conn config get server", "The value a command would use."),
                .init("conn config path --json | jq -r .databaseFile", "Where the local database is."),
            ]),
        subcommands: [
            ConfigShowCommand.self, ConfigGetCommand.self, ConfigSetCommand.self, ConfigInitCommand.self,
            ConfigEditCommand.self, ConfigProfilesCommand.self, ConfigPathCommand.self,
        ])

    public init() {}
}
