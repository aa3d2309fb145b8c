import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn config edit`: the config file in the user's editor, checked before it is saved.
public struct ConfigEditCommand: ConnCommand, ConfigFileWritingCommand {
    public static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Open the config file in your editor; it is checked before it replaces the file.",
        discussion: HelpText.discussion(
            """
            The editor ($VISUAL, then $EDITOR, else vi) gets a private copy beside the file. \
            When it exits, the copy is checked as every command would read it (YAML, keys, each \
            profile's values); only a good copy replaces the file, atomically. On an error, a \
            terminal is asked whether to edit again; otherwise (or on no) the file stays as it \
            was and the copy is kept, its path printed, so nothing typed is lost. Without a \
            file, the editor starts from the commented template of `conn config init`.
            """,
            exitCodes: "0 saved, or nothing changed; 69 the editor failed; 74 the file or its directory could not be written; 78 the edit is invalid (the file is unchanged; the edit is kept)",
            examples: [
                .init("conn config edit", "Edit the config file."),
                .init("EDITOR=nano conn --config ./ci.yaml config edit", "Another file, another editor."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    public init() {}

    public func run(in context: CommandContext) async throws {
        let path = context.configuration.configFile
        let access = ConfigFileAccess(path: path, environment: context.environment)
        let original = try access.read()
        try AtomicFile.ensureDirectory(containing: path)
        // Beside the file (its directory is the user's) and ending in .yaml, for the editor's highlighting.
        let copy = path + ".edit-\(getpid()).yaml"
        try ExternalEditor.createPrivateFile(copy, text: original ?? ConfigFileTemplate.text)
        let editor = ExternalEditor(environment: context.environment)
        while true {
            do {
                try editor.edit(copy, consequence: "the config file is unchanged")
            } catch {
                unlink(copy)  // the editor was quit with an error (vim's :cq): the edit is abandoned
                throw error
            }
            let edited = try ConfigFileAccess(path: copy, environment: context.environment).read() ?? ""
            if edited == (original ?? ConfigFileTemplate.text) {
                unlink(copy)
                try context.printer.emit(ConfigEditReport(configFile: path, changed: false))
                return
            }
            do {
                // An error names the copy: its lines are the edit's, not the file's.
                let checked = try access.check(edited, shownAs: copy)
                let note = try access.write(edited, checked: checked)
                unlink(copy)
                for warning in checked.warnings { context.printer.warning(warning) }
                if let note { context.printer.note(note) }
                try context.printer.emit(ConfigEditReport(configFile: path, changed: true))
                return
            } catch let error as ConnError where error.exitStatus == .configuration {
                context.printer.error(error)
                guard context.terminal.standardInputIsTerminal, Self.confirm(context, "Edit again? [Y/n] ") else {
                    throw ConnError.configuration(
                        "\(path) is unchanged; your edit is kept in \(copy)",
                        hint: "Fix it there and run `conn config edit` again (or copy it over the file once it is right).")
                }
            }
        }
    }

    /// Asks a yes/no question on the terminal; Enter means yes, end of input no.
    static func confirm(_ context: CommandContext, _ question: String) -> Bool {
        guard let answer = context.ask(question)?.lowercased() else { return false }
        return answer.isEmpty || answer.hasPrefix("y")
    }

}

/// What `conn config edit` did.
struct ConfigEditReport: Encodable, TextRenderable, SchemaVersioned {
    static let schemaVersion = 1
    let configFile: String
    /// false: the editor left the text as it was; nothing was written.
    let changed: Bool

    func renderText(style: TextStyle) -> String {
        TerminalSanitizer.sanitize(changed ? "saved \(configFile)" : "no change to \(configFile)", keepNewlines: false) + "\n"
    }
}
