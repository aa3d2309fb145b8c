import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn get`: any resource, offline-first — the network when it answers, the last copy when it
/// does not, kept with the HTTP validators.
public struct GetCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Read any URL offline-first: the network when it answers, else the last copy kept.",
        discussion: HelpText.discussion(
            """
            Prints the body on stdout, byte for byte (on a terminal, text is sanitised and a \\
            binary body is not printed). Every 2xx answer is kept in the local database with \\
            its ETag and Last-Modified, which the next request sends (If-None-Match, \\
            If-Modified-Since): a 304 costs no body. Cache-Control no-store is never kept, and \\
            max-age says how long a copy is fresh for cache-first. A copy is replaced whole or \\
            not at all; all copies together stay within cacheLimit (256MiB by default), the \\
            least recently used evicted first; one answer may be at most 32 MiB.

            --strategy network-first (the default) asks the network within --timeout and \\
            falls back on the copy when there is no answer or the server asks to try later \\
            (408, 425, 429, 5xx), saying so on stderr ("from the cache, fetched 3 hours ago: \\
            …"); 401, 403, 404 and other final answers are errors, never covered by a copy. \\
            cache-first serves a copy fresh for --max-age (else the server's max-age) without \\
            asking; stale-while-revalidate serves any copy at once, then refreshes it for next \\
            time; cache-only (--offline) never touches the network. Redirects are followed \\
            within the URL's origin only; the profile's token goes to the configured server's \\
            origin only. `conn cache list` shows the copies, `conn cache clear` drops them.
            """,
            exitCodes: """
                0 the body was printed (from the network or a copy); 69 no copy, and the network \\
                gave no answer (or --offline), or the server answered 404 or another final \\
                status; 75 no copy, and the server asks to try later; 77 the credentials were \\
                refused; 65 the answer is larger than 32 MiB; 64 a bad URL or option
                """,
            examples: [
                .init("conn get https://api.example.com/v1/catalog.json", "The catalog, from the network or, offline, the last copy."),
                .init("conn get https://api.example.com/v1/catalog.json --strategy cache-first --max-age 1h", "A copy less than an hour old without asking."),
                .init("conn get https://api.example.com/v1/catalog.json --offline --json | jq .ageSeconds", "How old the copy is, never touching the network."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Argument(help: ArgumentHelp("What to read: an http:// or https:// URL.", valueName: "url"))
    var url: String

    @Option(help: "network-first, cache-first, stale-while-revalidate or cache-only.")
    var strategy: CacheStrategy = .networkFirst

    @Option(name: .customLong("max-age"), help: ArgumentHelp("With cache-first: how old a copy may be and still be served without asking (default: the server's max-age).", valueName: "duration"))
    var maxAge: NonNegativeDuration?

    @Flag(help: "Never touch the network: the copy or nothing (as --strategy cache-only).")
    var offline = false

    @Option(name: [.customShort("H"), .customLong("header")], help: ArgumentHelp("A header to send, 'Name: value' (repeatable).", valueName: "header"))
    var headers: [String] = []

    public init() {}

    public func validate() throws {
        if offline, strategy != .networkFirst, strategy != .cacheOnly {
            throw ValidationError("--offline is --strategy cache-only; --strategy \(strategy.rawValue) uses the network.")
        }
        if maxAge != nil, (offline ? .cacheOnly : strategy) != .cacheFirst {
            throw ValidationError("--max-age says how fresh a copy cache-first serves: give --strategy cache-first with it.")
        }
    }

    public func run(in context: CommandContext) async throws {
        let target = try RequestDraft.url(url)
        let fields = try RequestDraft.headers(headers, secret: [], keyHeader: nil).map { ($0.name, $0.value) }
        let database = try context.openDatabase(migrations: HTTPCacheMigrations.all)
        let cache = HTTPCache(database: database, limit: context.configuration.cacheLimitBytes)
        let chosen = offline ? .cacheOnly : strategy
        let now = Date()
        try await HTTPTransport.with(configuration: context.configuration, logger: context.logger) { transport in
            let fetcher = ResourceFetcher(cache: cache, transport: transport, headers: fields)
            switch chosen {
            case .cacheOnly:
                guard let copy = try fetcher.copy(of: target, now: now) else { throw notCached(target, offline: true) }
                try show(.init(resource: copy, fromCache: true, reason: nil, current: false, stored: true), context: context)
            case .cacheFirst:
                if let copy = try cache.resource(target.absoluteString), copy.isFresh(at: now, maxAge: maxAge?.duration.seconds) {
                    try cache.touch(copy.url, at: now)
                    try show(.init(resource: copy, fromCache: true, reason: nil, current: true, stored: true), context: context)
                } else {
                    try show(try await fetcher.networkFirst(target), context: context)
                }
            case .staleWhileRevalidate:
                guard let copy = try fetcher.copy(of: target, now: now) else {
                    try show(try await fetcher.networkFirst(target), context: context)
                    return
                }
                try show(.init(resource: copy, fromCache: true, reason: nil, current: false, stored: true), context: context)
                // Then the network, for next time: its failure is said, never an error now.
                do {
                    let refreshed = try await fetcher.networkFirst(target)
                    if refreshed.reason != nil { context.printer.note("not refreshed: \(refreshed.reason!)") }
                } catch let error as ConnError {
                    context.printer.note("not refreshed: \(error.message)")
                }
            case .networkFirst:
                try show(try await fetcher.networkFirst(target), context: context)
            }
        }
    }

    private func notCached(_ url: URL, offline: Bool) -> ConnError {
        ConnError.unavailable(.notCached, "no copy of \(url.absoluteString) is kept\(offline ? ", and --offline leaves the network alone" : "")",
                              hint: "Fetch it once while the network answers: conn get \(url.absoluteString)")
    }

    /// The body on stdout (a JSON document with --json); where a copy came from on stderr.
    private func show(_ outcome: ResourceFetcher.Outcome, context: CommandContext) throws {
        let now = Date()
        if context.configuration.format == .json {
            try context.printer.emit(GetReport(outcome, now: now))
        } else {
            let body = outcome.resource.body
            if context.terminal.standardOutputIsTerminal {
                if let text = String(data: body, encoding: .utf8) {
                    context.printer.write(TerminalSanitizer.sanitize(text, keepNewlines: true))
                } else {
                    context.printer.warning("the body is \(body.count) bytes that are not text: not printed on a terminal (redirect it: > file)")
                }
            } else {
                context.printer.write(bytes: body)
            }
        }
        if outcome.fromCache, !(outcome.current && outcome.reason == nil) || context.verbosity == .verbose {
            let age = TimeFormatting.ago(seconds: outcome.resource.age(at: now))
            let why = outcome.reason.map { ": \($0)" } ?? (outcome.current ? ", still current" : offline || strategy == .cacheOnly ? " (--offline)" : "")
            context.printer.note("from the cache, fetched \(age)\(why)")
        }
    }
}
