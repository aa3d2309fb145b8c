import ConnCore
import ConnProtocol
import Foundation
import Logging

/// The HTTP half of `conn login` and `conn logout`: one request to the server's /session, its
/// answer checked by content (a token of the right shape, an expiry ahead), never by status alone.
struct SignInClient {
    let configuration: ConnConfiguration
    let logger: Logger

    /// Exchanges `email` and `password` for a sign-in with the server at `backEnd`.
    func signIn(backEnd: BackEndEndpoint, email: String, password: String, now: Date = Date()) async throws -> SignIn {
        let url = backEnd.url(for: .session)
        let body = try JSONEncoder().encode(SessionRequest(email: email, password: password))
        // No configured token travels with a sign-in: the request is its own credentials.
        let answer = try await HTTPTransport.with(timeout: configuration.timeout, credentials: nil, trust: configuration.serverTrust,
                                                  proxies: configuration.proxy, logger: logger) {
            try await $0.send(HTTPExchangeRequest(
                method: .POST, url: url, headers: [("Content-Type", "application/json")], body: body, maxResponseBytes: 64 * 1024))
        }
        switch answer.status {
        case 201, 200:
            break
        case 401, 403:
            throw ConnError(code: .authRefused, message: "\(url.absoluteString) refused the e-mail address and password (\(answer.status)): nothing was stored",
                            hint: "Check both and try again; `conn login --email ADDRESS` to use another address.", exitStatus: .permission)
        case 404:
            throw ConnError.unavailable(.httpStatus, "\(url.absoluteString) does not offer sign-in (404)",
                                        hint: "This server takes a token instead: CONN_TOKEN or `token:` in the config file.")
        default:
            throw ConnError.unexpectedStatus(answer.status, from: url, expected: "a session (201)")
        }
        guard let grant = try? JSONDecoder().decode(SessionGrant.self, from: answer.body) else {
            throw ConnError.dataError(.badSession, "\(url.absoluteString) answered \(answer.status) without a session {token, expiresAt}: nothing was stored",
                                      hint: "A captive portal or a proxy may be answering for the server: `conn probe` tells.")
        }
        guard SessionGrant.isAcceptableToken(grant.token) else {
            throw ConnError.dataError(.badSession, "the token \(url.absoluteString) answered is not one conn can use (16 to 4096 printable characters): nothing was stored")
        }
        guard let expiresAt = JSONOutput.date(fromTimestamp: grant.expiresAt), expiresAt > now, expiresAt < now.addingTimeInterval(10 * 365 * 86_400) else {
            throw ConnError.dataError(.badSession, "the session's expiresAt '\(TerminalSanitizer.sanitize(String(grant.expiresAt.prefix(40)), keepNewlines: false))' from \(url.absoluteString) is not a time ahead: nothing was stored")
        }
        let grantedEmail = EmailAddress.isValid(grant.email) ? grant.email : email
        return SignIn(email: grantedEmail, token: grant.token, expiresAt: expiresAt, server: backEnd.baseURL.absoluteString, signedInAt: now)
    }

    /// Tells the server that granted `signIn` to end it. Returns whether it said so (204).
    func signOut(_ signIn: SignIn, sessionURL: URL) async throws -> Bool {
        guard let server = URL(string: signIn.server) else { return false }
        // The token goes to the origin that granted it, and nowhere else.
        let answer = try await HTTPTransport.with(timeout: configuration.timeout, credentials: Credentials(token: signIn.token, server: server),
                                                  trust: configuration.serverTrust, proxies: configuration.proxy, logger: logger) {
            try await $0.send(HTTPExchangeRequest(method: .DELETE, url: sessionURL, maxResponseBytes: 64 * 1024))
        }
        return (200...299).contains(answer.status)
    }
}
