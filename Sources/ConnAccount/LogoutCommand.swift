import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn logout`: forgets the profile's sign-in and tells the server that granted it.
public struct LogoutCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out: the server ends the session and the kept token is removed.",
        discussion: HelpText.discussion(
            """
            Sends DELETE /session with the profile's token to the server that granted it, then \
            removes the token's file. The file is removed even when the server cannot be \
            reached (a warning says so: the token stays valid there until it expires). Not \
            signed in: nothing to do.
            """,
            exitCodes: "0 signed out, or not signed in; 74 the file could not be removed",
            examples: [
                .init("conn logout", "Sign out of the default profile."),
                .init("conn --profile work logout --json", "Sign out of the work profile; what was done as JSON."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    public init() {}

    public func run(in context: CommandContext) async throws {
        let file = SignIn.file(paths: context.configuration.paths, profile: context.configuration.profile)
        let signIn: SignIn?
        do {
            signIn = try SignIn.load(from: file)
        } catch {
            // A damaged or unsafe file is removed all the same: it is what signing out asks for.
            signIn = nil
        }
        guard FileManager.default.fileExists(atPath: file) else {
            try context.printer.emit(SignOutReport(email: nil, server: nil, serverTold: false, wasSignedIn: false))
            return
        }
        var told = false
        if let signIn, signIn.expiresAt > Date(), let server = URL(string: signIn.server) {
            let sessionURL = BackEndEndpoint(baseURL: server, resourcePaths: context.configuration.backEnd?.resourcePaths ?? [:]).url(for: .session)
            do {
                told = try await SignInClient(configuration: context.configuration, logger: context.logger).signOut(signIn, sessionURL: sessionURL)
            } catch let error as ConnError {
                context.printer.warning("\(signIn.server) was not told (\(error.message)): the token stays valid there until it expires, \(TimeFormatting.ago(seconds: -signIn.expiresAt.timeIntervalSinceNow))")
            }
        }
        guard unlink(file) == 0 || errno == ENOENT else {
            throw ConnError(code: .ioError, message: "cannot remove \(file): \(String(cString: strerror(errno)))", exitStatus: .ioError)
        }
        try context.printer.emit(SignOutReport(email: signIn?.email, server: signIn?.server, serverTold: told, wasSignedIn: true))
    }
}

/// What `conn logout` did.
struct SignOutReport: Encodable, TextRenderable, SchemaVersioned {
    static let schemaVersion = 1
    let email: String?
    let server: String?
    /// Whether the server confirmed the session's end.
    let serverTold: Bool
    let wasSignedIn: Bool

    func renderText(style: TextStyle) -> String {
        guard wasSignedIn else { return "not signed in\n" }
        return "signed out" + (email.map { " \($0)" } ?? "") + (server.map { " from \($0)" } ?? "") + (serverTold ? "" : " (the server was not told)") + "\n"
    }
}
