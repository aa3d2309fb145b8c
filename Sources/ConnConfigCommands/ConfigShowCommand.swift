import ArgumentParser
import ConnCommandKit
import ConnCore

/// `conn config show`: every setting with its value and source. The token is never printed.
public struct ConfigShowCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every setting, its value and where it came from (the token is never shown).")

    @OptionGroup public var global: GlobalOptions

    public init() {}

    public func run(in context: CommandContext) async throws {
        try context.printer.emit(ConfigReport(context.configuration))
    }
}
