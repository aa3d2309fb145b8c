import ArgumentParser
import ConnCommandKit
import ConnCore

/// `conn config show`: every setting with its value and source. The token is never printed.
public struct ConfigShowCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every setting, its value and where it came from (the token is never shown).",
        discussion: HelpText.discussion(
            "",
            exitCodes: "0 shown; 78 the config file is invalid or missing (when named)",
            examples: [
                .init("conn config show", "Every setting and where its value came from."),
                .init("conn --profile work config show --json | jq .server", "The server the work profile uses."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    public init() {}

    public func run(in context: CommandContext) async throws {
        try context.printer.emit(ConfigReport(context.configuration))
    }
}
