import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnProtocol
import Foundation

/// `conn config init`: writes a first config file, asking for the server and e-mail on a terminal.
public struct ConfigInitCommand: ConnCommand, ConfigFileWritingCommand {
    public static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a new config file: the server and your e-mail, every other setting commented.",
        discussion: HelpText.discussion(
            """
            Takes the server from --server and the address from --email; on a terminal, asks \
            for what was not given (Enter leaves it out). Every other setting is written as a \
            comment with its default, so the file explains itself. With --profile the values \
            go into that profile's section. An existing file is kept unless --force is given; \
            then it is saved as FILE.bak first. The file is created 0600.
            """,
            exitCodes: "0 written; 64 the file exists (without --force), or bad usage; 78 a value is invalid; 74 the file could not be written",
            examples: [
                .init("conn config init", "Asks for the server and your e-mail."),
                .init("conn config init --server http://127.0.0.1:8080 --email ann@conn.example", "Without questions, as a script would."),
                .init("conn --config ./ci.yaml config init --server http://ci:8080 --force", "Another file, replaced."),
            ]))

    @Option(help: ArgumentHelp("Your address, the sender of what you send.", valueName: "address"))
    var email: String?

    @Flag(help: "Replace an existing config file (it is kept as FILE.bak).")
    var force = false

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    public init() {}

    public func validate() throws {
        if let email, let problem = Self.emailProblem(email) { throw ValidationError("--email '\(email)' \(problem)") }
    }

    public func run(in context: CommandContext) async throws {
        let path = context.configuration.configFile
        let access = ConfigFileAccess(path: path, environment: context.environment)
        let exists = FileManager.default.fileExists(atPath: path)
        if exists, !force {
            throw ConnError(code: .configExists, message: "\(path) exists; conn config init does not replace it",
                            hint: "Change it with `conn config set KEY VALUE` or `conn config edit`; --force replaces it (keeping FILE.bak).",
                            exitStatus: .usage)
        }
        let asks = context.terminal.standardInputIsTerminal && context.terminal.standardErrorIsTerminal && context.verbosity > .quiet
        var server = global.server
        var address = email
        if asks, server == nil { server = Self.ask(context, "Server URL (such as http://127.0.0.1:8080; Enter to leave it out): ", problem: BackEndEndpoint.serverURLProblem) }
        if asks, address == nil { address = Self.ask(context, "Your e-mail address (Enter to leave it out): ", problem: Self.emailProblem) }

        var editor = ConfigFileEditor(text: "", path: path)
        let section = global.profile.flatMap { $0 == "default" ? nil : $0 }
        let prefix = section.map { ["profiles", $0] } ?? []
        if let server { try editor.set(prefix + ["server"], to: server) }
        if let address { try editor.set(prefix + ["email"], to: address) }
        let text = ConfigFileTemplate.header + "\n" + editor.text + (editor.text.isEmpty ? "" : "\n") + ConfigFileTemplate.reference
        for warning in try access.check(text).warnings { context.printer.warning(warning) }
        if exists {
            let backup = path + ".bak"
            guard let old = try access.read() else { throw ConnError(code: .ioError, message: "cannot read \(path) to keep it", exitStatus: .ioError) }
            try AtomicFile.replace(backup, with: Data(old.utf8), mode: AtomicFile.mode(of: path) ?? 0o600)
            context.printer.note("the old file is kept as \(backup)")
        }
        try AtomicFile.replace(path, with: Data(text.utf8), mode: 0o600)
        try context.printer.emit(ConfigInitReport(configFile: path, replaced: exists, profile: section, server: server, email: address))
    }

    /// Asks until the answer is empty or passes `problem`; nil for empty or the end of input.
    static func ask(_ context: CommandContext, _ prompt: String, problem: (String) -> String?) -> String? {
        while true {
            guard let line = context.ask(prompt), !line.isEmpty else { return nil }
            guard let message = problem(line) else { return line }
            context.printer.error(ConnError.usage("'\(line)' \(message)"))
        }
    }

    /// Why `address` is not an e-mail address, or nil.
    static func emailProblem(_ address: String) -> String? {
        EmailAddress.isValid(address) ? nil : "is not an e-mail address (name@example.com)"
    }
}

/// What `conn config init` wrote.
struct ConfigInitReport: Encodable, TextRenderable, SchemaVersioned {
    static let schemaVersion = 1
    let configFile: String
    /// An existing file was replaced (and kept as `configFile.bak`).
    let replaced: Bool
    /// The profile whose section got the values; nil: the top level.
    let profile: String?
    let server: String?
    let email: String?

    func renderText(style: TextStyle) -> String {
        var text = "wrote \(configFile)\n"
        if server == nil { text += "next: conn config set server URL\n" } else { text += "next: conn login, then conn probe\n" }
        return TerminalSanitizer.sanitize(text, keepNewlines: true)
    }
}
