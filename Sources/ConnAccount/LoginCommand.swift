import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnProtocol
import Foundation

/// `conn login`: seed 003's sign-in — an e-mail address and a password exchanged with the server
/// for a token, kept for the profile and used like a configured one.
public struct LoginCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to the server with your e-mail address and password; the token is kept for the profile.",
        discussion: HelpText.discussion(
            """
            The password is asked for on the terminal without echo, or read from standard input \
            with --password-stdin (its first line), never taken as an argument. The server \
            (POST /session) answers a token and its expiry; conn keeps them in \
            $XDG_DATA_HOME/conn/sessions/PROFILE.json (0600), sends the token to that server's \
            origin only, and uses it as the profile's token until it expires — unless a token \
            is configured (CONN_TOKEN, `token:`), which wins. `conn config show` says who is \
            signed in. The address comes from --email, else the profile's `email`, else a prompt.
            """,
            exitCodes: """
                0 signed in; 64 no password could be read (not a terminal and no \
                --password-stdin) or no address; 77 the server refused the address and password \
                (nothing is stored); 65 its answer was not a session; 69 or 75 the server could \
                not be reached; 78 no server is configured
                """,
            examples: [
                .init("conn login", "Asks for the password (and the address, if no `email` is configured)."),
                .init("conn login --email ann@example.com --password-stdin < ~/.secrets/conn", "From a script, as docker login does."),
                .init("conn --profile work login --json", "Sign in for the work profile; the session (without its token) as JSON."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Option(help: ArgumentHelp("The e-mail address to sign in with (default: the profile's `email`).", valueName: "address"))
    var email: String?

    @Flag(name: .customLong("password-stdin"), help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    public init() {}

    public func run(in context: CommandContext) async throws {
        let backEnd = try context.requireBackEnd()
        let address = try signInAddress(context)
        let password = try readPassword(for: address, context: context)
        let client = SignInClient(configuration: context.configuration, logger: context.logger)
        let signIn = try await client.signIn(backEnd: backEnd, email: address, password: password)
        let file = SignIn.file(paths: context.configuration.paths, profile: context.configuration.profile)
        try signIn.save(to: file)
        if context.configuration.token != nil, context.configuration.signIn?.token != context.configuration.token {
            context.printer.warning("a token is configured (\(context.configuration.sources["token"]?.description ?? "")): it is used instead of this sign-in until it is removed")
        }
        try context.printer.emit(SignInReport(signIn: signIn, profile: context.configuration.profile, file: file))
    }

    private func signInAddress(_ context: CommandContext) throws -> String {
        var address = email ?? context.configuration.email
        if address == nil, context.terminal.standardInputIsTerminal, !passwordStdin {
            address = context.ask("E-mail: ")
        }
        guard let address, !address.isEmpty else {
            throw ConnError.usage("no e-mail address to sign in with", hint: "Give --email ADDRESS, or set `email:` for the profile.")
        }
        guard EmailAddress.isValid(address) else {
            throw ConnError.usage("'\(TerminalSanitizer.sanitize(address, keepNewlines: false))' is not an e-mail address",
                                  hint: "An address is local@domain.tld.")
        }
        return address
    }

    private func readPassword(for address: String, context: CommandContext) throws -> String {
        let line: String?
        if passwordStdin {
            line = Self.firstLine(of: FileHandle.standardInput)
        } else if context.terminal.standardInputIsTerminal {
            line = context.ask("Password for \(address): ", hidingInput: true)
        } else {
            throw ConnError.usage("no password: standard input is not a terminal",
                                  hint: "Pipe it with --password-stdin (never as an argument: it would show in `ps` and the history).")
        }
        guard let password = line, !password.isEmpty else { throw ConnError.usage("the password is empty: nothing was sent") }
        return password
    }

    /// The first line of `handle`, at most 4 KiB, without its line end.
    static func firstLine(of handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while bytes.count < 4096, let chunk = try? handle.read(upToCount: 1), let byte = chunk.first {
            if byte == 0x0A { break }
            bytes.append(byte)
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}

/// What `conn login` prints: who is signed in where, until when (never the token).
struct SignInReport: Encodable, TextRenderable, SchemaVersioned {
    static let schemaVersion = 1
    let email: String
    let server: String
    let expiresAt: Date
    let profile: String
    let file: String

    init(signIn: SignIn, profile: String, file: String) {
        email = signIn.email
        server = signIn.server
        expiresAt = signIn.expiresAt
        self.profile = profile
        self.file = file
    }

    func renderText(style: TextStyle) -> String {
        "signed in to \(server) as \(email) until \(style.moment(expiresAt)) (profile \(profile))\n"
    }
}
