import ArgumentParser
import ConnCommandKit
import ConnCore

/// `conn config path`: the config file's path (for `$EDITOR "$(conn config path)"`) and, in
/// JSON, every directory conn uses.
public struct ConfigPathCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "path",
        abstract: "Print the config file's path; with --json, every directory conn uses.",
        discussion: HelpText.discussion(
            "",
            exitCodes: "0 printed (the files need not exist)",
            examples: [
                .init("conn config path", "The config file's path."),
                .init("conn config path --json", "Every file and directory conn uses."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    public init() {}

    public func run(in context: CommandContext) async throws {
        try context.printer.emit(PathsReport(context.configuration))
    }
}

struct PathsReport: Encodable, TextRenderable {
    let configFile: String
    let configFileExists: Bool
    let configDirectory: String
    let dataDirectory: String
    let stateDirectory: String
    let cacheDirectory: String
    let databaseFile: String
    let pluginDirectory: String

    init(_ configuration: ConnConfiguration) {
        let paths = configuration.paths
        configFile = configuration.configFile
        configFileExists = configuration.configFileExists
        configDirectory = paths.configDirectory
        dataDirectory = paths.dataDirectory
        stateDirectory = paths.stateDirectory
        cacheDirectory = paths.cacheDirectory
        databaseFile = paths.databaseFile
        pluginDirectory = paths.pluginDirectory
    }

    func renderText(style: TextStyle) -> String { configFile }
}
