import ArgumentParser
import ConnCommandKit
import ConnCore
import Synchronization

/// `conn plugins`: the commands conn has, built in and external.
public struct PluginsCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List built-in commands and external conn-NAME plugins.",
        discussion: HelpText.discussion(
            """
            An executable named conn-NAME in $XDG_DATA_HOME/conn/plugins or on PATH runs as \
            `conn NAME`; conn-a-b runs as `conn a b` (the longest match wins). Built-in commands \
            always win. The plugin receives conn's resolved configuration in CONN_SERVER, \
            CONN_PROFILE, CONN_FORMAT, CONN_TIMEOUT, CONN_COLOR, CONN_RESOURCES_<NAME> and, if one \
            is set, the token in CONN_TOKEN; its exit code is conn's.
            """,
            exitCodes: "0 its help (with no command); 64 a word that names none of its commands",
            examples: [
                .init("conn plugins list", "Built-in commands and the plugins found, with their paths."),
                .init("conn hello --json", "Run the plugin conn-hello, which gets --json and the configuration."),
            ]),
        subcommands: [PluginsListCommand.self])

    public init() {}

    /// The names of the built-in commands, set once by the executable at start-up.
    public static var builtInNames: [String] {
        get { builtIns.withLock { $0 } }
        set { builtIns.withLock { $0 = newValue } }
    }
    private static let builtIns = Mutex<[String]>([])
}

public struct PluginsListCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List built-in commands and the external plugins found, with their paths.",
        discussion: HelpText.discussion(
            "",
            exitCodes: "0 listed (a directory on PATH that cannot be read is skipped)",
            examples: [
                .init("conn plugins list", "Every command conn runs, and for a plugin the file that runs."),
                .init("conn plugins list --json | jq -r '.plugins[] | select(.kind == \"external\") | .path'", "The plugins' paths, for a script."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Flag(help: "Print only the command words the plugins add, one a line (what shell completion offers after `conn`).")
    var names = false

    public init() {}

    public func run(in context: CommandContext) async throws {
        let external = PluginLocator(environment: context.environment).all()
        let builtIns = Set(PluginsCommand.builtInNames)
        if names {
            // The first word of each plugin that runs (conn-a-b is `conn a b`), once each.
            var seen = Set<String>()
            let words = external.filter { !$0.shadowed }.compactMap { $0.name.split(separator: "-").first.map(String.init) }
                .filter { !builtIns.contains($0) && seen.insert($0).inserted }
            context.printer.write(words.sorted().map { $0 + "\n" }.joined())
            return
        }
        let report = PluginsReport(
            plugins: PluginsCommand.builtInNames.sorted().map { PluginsReport.Entry(name: $0, kind: "builtIn", path: nil, active: true, note: nil) }
                + external.map { plugin in
                    let hiddenByBuiltIn = builtIns.contains(plugin.name.split(separator: "-").first.map(String.init) ?? plugin.name)
                    return PluginsReport.Entry(
                        name: plugin.name, kind: "external", path: plugin.path,
                        active: !plugin.shadowed && !hiddenByBuiltIn,
                        note: hiddenByBuiltIn ? "hidden by the built-in command" : plugin.shadowed ? "shadowed by an earlier plugin of the same name" : nil)
                })
        try context.printer.emit(report)
    }
}

struct PluginsReport: Encodable, TextRenderable {
    struct Entry: Encodable {
        let name: String
        /// `builtIn` or `external`.
        let kind: String
        let path: String?
        /// False when another command of that name runs instead.
        let active: Bool
        let note: String?
    }
    let plugins: [Entry]

    func renderText(style: TextStyle) -> String {
        // Plugin names and paths are file names from PATH: anything but NUL and "/" can be in them.
        let names = plugins.map { TerminalSanitizer.sanitize($0.name, keepNewlines: false) }
        let width = names.map(\.count).max() ?? 0
        return zip(plugins, names).map { entry, name in
            let name = name.padded(to: width)
            let location = entry.path.map { TerminalSanitizer.sanitize($0, keepNewlines: false) } ?? "(built in)"
            let note = entry.note.map { "  " + style.dim("(\($0))") } ?? ""
            return "\(entry.active ? style.bold(name) : style.dim(name))  \(location)\(note)"
        }.joined(separator: "\n") + "\n"
    }
}
