/// The closed set of error codes conn reports (`error.code` in JSON). Scripts match on them, so
/// a code, once shipped, keeps its spelling and meaning; add a case rather than reuse one.
public enum ErrorCode: String, Sendable, CaseIterable, Codable {
    // The command line and the configuration.
    case usage, configInvalid, noInput, notUTF8, textTooLarge, fileTooLarge, badTarget, noTargets
    /// `conn config init`: the config file exists, and --force was not given (64).
    case configExists

    // Reaching a server (the transport's classes, probe's rungs).
    case nxdomain, noRoute, refused, timeout, tlsError, unreachable, connectionClosed
    case redirected, tooManyRedirects, responseTooLarge, decompressionLimit
    case webSocketFailed, webSocketIncomplete
    /// The proxy could not be reached (69); it wants credentials: 407 (77); it refused the
    /// tunnel or answered for the target with an error of its own (69).
    case proxyUnreachable, proxyAuthRequired, proxyRefused

    // What a server answered (HTTPStatusClass decides which).
    /// 401 or 403: the credentials were refused (77).
    case authRefused
    /// 5xx, 408, 409, 425, 429: the server asks to try later (75).
    case serverError
    /// Any other status that is not the answer asked for (69).
    case httpStatus

    // What an answer contained.
    case badInbox, badTimeAnswer, badNTPAnswer, ntpKissOfDeath
    case noDateHeader, cachedDate, inconsistentDate, noUsableSamples, uncertaintyTooWide, noOffset
    /// `clock-offset --chrony-socket`: chronyd does not listen at the socket (69).
    case chronyUnavailable
    /// `conn login`: the answer to a sign-in is not a usable session (65).
    case badSession

    // The outbox and sending.
    case rejected, expired, alreadySent, messageBeingSent, stillWaiting, noSuchMessage

    // The inbox cache.
    case emptyCache
    /// `conn get`: no copy of the URL is cached, and the network was not used or failed (69).
    case notCached

    // Local storage.
    case databaseUnavailable, databaseReadOnly, databaseLocked, databaseCorrupt, diskFull, ioError, directoryUnavailable

    // Running things.
    case waitTimedOut, commandFailed, pluginFailed, cancelled
    /// `conn send`: the editor could not be started, failed, or left no file (69).
    case editorFailed

    // The agent.
    /// Another agent already runs for this database (75).
    case agentRunning
    /// No agent runs for this database (69).
    case noAgent
    /// The agent's directory is another user's or open to others (77).
    case agentDirectoryUnsafe
    /// `--metrics-listen`: the address cannot be listened on (taken, not this machine's, not allowed).
    case listenFailed

    /// A bug in conn (70).
    case `internal`
}
