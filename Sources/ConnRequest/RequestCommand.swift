import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnOutbox
import Foundation

/// `conn request`: any HTTP request that changes something, written to the outbox durably,
/// then delivered once — now, or when its server can be reached — with one idempotency key on
/// every attempt.
public struct RequestCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send any HTTP change (POST, PUT, PATCH, DELETE): queued durably first, delivered once, now or later.",
        discussion: HelpText.discussion(
            """
            The request (method, URL, headers, body bytes) is committed to the outbox before \
            any attempt, then tried once, as `conn send` does for messages; what is not \
            delivered now goes out with `conn outbox flush`, the agent, or a REPL. Every \
            attempt carries the same Idempotency-Key (a UUID; IETF httpapi draft), so a server \
            that honours it applies the request once however often it is retried. \
            --idempotency-header names another header; --no-idempotency-key sends none (a \
            retry after a lost answer may then be applied twice: said on stdout).

            Delivered means the final answer from the URL's own origin has a status --expect \
            lists, or any 2xx without it — never an HTML page the request did not ask for (a \
            captive portal). Redirects are not followed. 408, 425, 429 and 5xx are retried with \
            the outbox's backoff and the server's Retry-After, as are network failures; 401 \
            and 403 pause the outbox when the profile's token was sent (to the configured \
            server's origin only), else fail the request; any other answer (409 too) fails it, \
            kept for `conn outbox resend` or `delete`. The answer is kept: status, Location, \
            ETag, Content-Type and the first 64 KiB of the body (`conn outbox show ID --json`).

            The body is sent byte for byte as given (a file's last newline is kept, unlike \
            curl's -d @file), at most 10 MiB, with Content-Type application/json when it is \
            JSON and none is given, else application/octet-stream. Authorization, Cookie, \
            Proxy-Authorization, X-Api-Key and every --secret-header are stored in the private \
            database (0600) and never printed. A request is bound to its URL: it goes there \
            and nowhere else, whatever server is configured later (`outbox retarget` refuses it).
            """,
            exitCodes: """
                0 without --wait, once the request is safely queued (delivered or not; the output \
                says which), with --wait once it is delivered; 65 the server refused it (--wait); \
                75 still waiting when the time ran out (--wait); 77 the credentials were refused \
                (--wait); 64 a bad method, URL, header, --expect or body (nothing is written); 66 \
                an unreadable --body-file (nothing is written)
                """,
            examples: [
                .init("conn request https://api.example.com/v1/items --body '{\"name\":\"lamp\"}'",
                      "POST JSON; delivered now, or later with the same Idempotency-Key."),
                .init("conn request -X DELETE https://api.example.com/v1/items/42 -H 'Authorization: Bearer $TOKEN'",
                      "A DELETE with its own credentials, never printed."),
                .init("conn request -X PUT https://api.example.com/v1/items/42 --body-file item.json --expect 200,204 --wait 2m --json | jq -r .answer.status",
                      "Wait up to 2 minutes for delivery; the answer's status from JSON."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Argument(help: ArgumentHelp("Where to send it: an http:// or https:// URL.", valueName: "url"))
    var url: String

    @Option(name: [.customShort("X"), .customLong("method")], help: ArgumentHelp("POST (the default with a body), PUT, PATCH or DELETE.", valueName: "method"))
    var method: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: ArgumentHelp("A header, 'Name: value' (repeatable).", valueName: "header"))
    var headers: [String] = []

    @Option(help: ArgumentHelp("The body, exactly these bytes.", valueName: "text"))
    var body: String?

    @Option(name: .customLong("body-file"), help: ArgumentHelp("Read the body from this file ('-': standard input), byte for byte.", valueName: "path"),
            completion: .file())
    var bodyFile: String?

    @Option(help: ArgumentHelp("The statuses that prove delivery, comma-separated or repeated (default: any 2xx).", valueName: "status"))
    var expect: [String] = []

    @Option(name: .customLong("idempotency-header"), help: ArgumentHelp("The header that carries the idempotency key.", valueName: "name"))
    var idempotencyHeader = "Idempotency-Key"

    @Flag(name: .customLong("no-idempotency-key"), help: "Send no idempotency key: the request is delivered at least once.")
    var noIdempotencyKey = false

    @Option(name: .customLong("secret-header"), help: ArgumentHelp("A header whose value is never printed, besides Authorization, Cookie, Proxy-Authorization and X-Api-Key (repeatable).", valueName: "name"))
    var secretHeaders: [String] = []

    @Option(name: .long, defaultAsFlag: "30s", parsing: .next,
            help: ArgumentHelp("Keep retrying until the request is delivered or failed, for up to this long (--wait alone: 30s).", valueName: "duration"))
    var wait: OptionalValueDuration? = nil

    public init() {}

    public func validate() throws {
        try wait?.check(option: "--wait")
    }

    public func run(in context: CommandContext) async throws {
        let target = try RequestDraft.url(url)
        let keyHeader = noIdempotencyKey ? nil : try RequestDraft.name(idempotencyHeader, option: "--idempotency-header")
        var fields = try RequestDraft.headers(headers, secret: secretHeaders, keyHeader: keyHeader)
        let expected = try RequestDraft.expect(expect)
        if expected?.isEmpty == true { throw ConnError.usage("--expect names no status", hint: "Example: --expect 201,202") }
        let bytes = try RequestDraft.body(text: body, file: bodyFile)
        let verb = try RequestDraft.method(method, hasBody: bytes != nil)
        if let contentType = RequestDraft.contentType(for: bytes, headers: fields) { fields.append(contentType) }
        let request = StoredRequest(method: verb, url: target.absoluteString, headers: fields, body: bytes, expect: expected, keyHeader: keyHeader)

        var store = try context.openOutbox()
        if let wait { store.fitBackoff(within: wait.duration) }
        let start = ContinuousClock.now
        if let pause = try store.pause() {
            let queued = try store.enqueue(request: request, profile: context.configuration.profile, now: Date())
            try context.printer.emit(summary(queued))
            try FirstAttempt.request.paused(queued, by: pause, context: context, waited: wait != nil)
            return
        }
        let backEnd = context.configuration.backEnd
        let settled = try await HTTPTransport.with(configuration: context.configuration, logger: context.logger) { transport in
            let deliverer = OutboxDeliverer(store: store, transport: transport, target: OutboxTarget(backEnd), concurrency: 1,
                                            requestTimeout: FirstAttempt.timeout(context.configuration))
            return try await FirstAttempt.request.attempt(with: deliverer, wait: wait?.duration, from: start, context: context) { deliverer in
                try store.enqueue(request: request, profile: context.configuration.profile, now: Date(), leaseTo: deliverer.owner, lease: deliverer.lease)
            }
        }
        let agent = FirstAttempt.handOver(settled, context: context)
        try context.printer.emit(summary(settled))
        try FirstAttempt.request.explain(settled, context: context, waited: wait != nil, agent: agent)
    }

    /// The one line on stdout (text), or the whole request with its answer (JSON).
    private func summary(_ message: OutboxMessage) -> RequestSummary {
        RequestSummary(report: MessageReport(message), atLeastOnce: message.request?.keyHeader == nil)
    }
}

/// What `conn request` prints: the summary line in text, the outbox item in JSON.
struct RequestSummary: Encodable, TextRenderable, SchemaVersioned {
    static let schemaVersion = MessageReport.schemaVersion
    var report: MessageReport
    /// No idempotency key is sent: said on the line, once.
    var atLeastOnce: Bool

    func encode(to encoder: any Encoder) throws { try report.encode(to: encoder) }

    func renderText(style: TextStyle) -> String {
        var line = report
        line.summaryOnly = true
        let text = line.renderText(style: style)
        guard atLeastOnce else { return text }
        return String(text.dropLast()) + "  (no idempotency key: delivered at least once)\n"
    }
}
