import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn config set KEY VALUE`: changes one line of the config file, keeping the rest of it.
public struct ConfigSetCommand: ConnCommand, ConfigFileWritingCommand {
    public static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set a key in the config file (at the top level, or in the profile --profile names).",
        discussion: HelpText.discussion(
            """
            The file is edited, not rewritten: the key's line gets the new value, or a new line \
            goes where the key belongs; comments, order and other profiles stay as they are. The \
            value is checked as every command would read it before the file is replaced \
            (atomically); a bad one changes nothing. With --profile the key goes into that \
            profile's section, created when missing; without it, to the top level, which every \
            profile inherits. VALUE - reads the value from standard input (a token kept out of \
            the shell's history). A file holding a token is made 0600.
            """,
            exitCodes: "0 set; 64 unknown key or bad usage; 78 the value or the file is invalid (nothing changed); 74 the file could not be written",
            examples: [
                .init("conn config set server http://127.0.0.1:8080", "The server, for every profile without its own."),
                .init("conn config set timeout 5s --profile work", "A shorter deadline for the work profile."),
                .init("conn config set resources.inbox /api/inbox.json", "Where the inbox is under the server."),
                .init("pass show conn | conn config set token -", "A token from a password manager."),
            ]))

    @OptionGroup var keyArgument: ConfigKeyArgument
    var key: ConfigKeyName { keyArgument.key }

    @Argument(help: ArgumentHelp("The value, as it would be written in the file; - reads it from standard input.", valueName: "value"))
    var value: String

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    public init() {}

    public func validate() throws {
        if key.dotted == "profile", global.profile != nil {
            throw ValidationError("the key 'profile' (the profile used by default) stands at the top level only; leave out --profile")
        }
        if global.profile == "profiles" || global.profile?.isEmpty == true {
            throw ValidationError("--profile '\(global.profile ?? "")' cannot name a profile")
        }
    }

    public func run(in context: CommandContext) async throws {
        let newValue = value == "-" ? try Self.readValue(context) : value
        let access = ConfigFileAccess(path: context.configuration.configFile, environment: context.environment)
        let existing = try access.read()
        let section = global.profile.flatMap { $0 == "default" ? nil : $0 }
        let keyPath = (section.map { ["profiles", $0] } ?? []) + key.components

        var editor = ConfigFileEditor(text: existing ?? "", path: access.path)
        try editor.set(keyPath, to: newValue)
        let checked: ConfigFileCheck
        do {
            checked = try access.check(editor.text)
        } catch let error as ConnError where existing.map({ (try? access.check($0)) == nil }) ?? false {
            // The problem is elsewhere in the file, and was there before this change.
            throw ConnError.configuration(error.message, hint: "The file had this problem before the change; fix it first: conn config edit")
        } catch var error as ConnError {
            // The new value is wrong: it is not in the file, so the file's line would mislead.
            error.message = "\(key.dotted) was not set: " + error.message.replacingOccurrences(
                of: #" \(from [^()]*:[0-9]+\)"#, with: "", options: .regularExpression)
            throw error
        }
        let permissionNote = try access.write(editor.text, checked: checked)
        for warning in checked.warnings { context.printer.warning(warning) }
        if let permissionNote { context.printer.note(permissionNote) }
        if let shadow = Self.shadowingSource(of: key, section: section, writtenLine: editor.line(of: keyPath), context: context) {
            context.printer.warning("\(key.dotted) is still taken from \(shadow), which wins over this line of the file")
        }
        try context.printer.emit(ConfigSetReport(
            configFile: access.path, profile: section, key: key.dotted,
            value: key.dotted == "token" ? "<redacted>" : URLUserinfo.redacted(newValue), fileCreated: existing == nil))
    }

    /// One line of standard input, without its newline; an empty input is refused.
    static func readValue(_ context: CommandContext) throws -> String {
        guard let line = context.input.readLine(hidingInput: false) else {
            throw ConnError.usage("VALUE - reads the value from standard input, which was empty", hint: "Example: printf %s \"$TOKEN\" | conn config set token -")
        }
        return line
    }


    /// After the change, what the user's own command would use instead of it, if anything: a flag,
    /// a CONN_* variable, or the active profile's own line.
    private static func shadowingSource(of key: ConfigKeyName, section: String?, writtenLine: Int?, context: CommandContext) -> String? {
        var overrides = ConfigurationOverrides()
        overrides.profile = section
        guard let resolved = try? ConfigurationLoader(environment: context.environment).load(overrides),
            let source = resolved.sources[key.dotted]
        else { return nil }
        switch source {
        case .environment, .flag:
            return source.description
        case .file(_, let line?) where line != writtenLine:
            return "profile \(resolved.profile)'s own line (\(resolved.configFile):\(line))"
        default:
            return nil
        }
    }
}

/// What `conn config set` changed.
struct ConfigSetReport: Encodable, TextRenderable, SchemaVersioned {
    static let schemaVersion = 1
    let configFile: String
    /// The profile whose section was changed; nil: the top level.
    let profile: String?
    let key: String
    /// The value written (`<redacted>` for the token; a URL's `user:password@` as `***@`).
    let value: String
    let fileCreated: Bool

    func renderText(style: TextStyle) -> String {
        let place = profile.map { "profile \($0) of " } ?? ""
        let text = "\(key) = \(value) in \(place)\(configFile)\(fileCreated ? " (created)" : "")"
        return TerminalSanitizer.sanitize(text, keepNewlines: false) + "\n"
    }
}
