import ConnProtocol
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The reference back end: the protocol's resources over Hummingbird, plus fault injection.
///
/// It runs its own request loop around the router (rather than Hummingbird's `Application`)
/// because two faults need what `Application` hides: the `Date` header must carry the skewed
/// clock (`Application` overwrites it after all middleware), and a dropped response must close
/// the connection after the request was processed.
public final class ConnServer: Sendable {
    public let options: ServerOptions
    public let store: MailStore
    let clock: ServerClock
    let hub = WebSocketHub()
    let logger: Logger
    let authenticator: Authenticator

    public init(options: ServerOptions, logger: Logger) throws {
        self.options = options
        self.logger = logger
        self.clock = ServerClock(skewMS: options.faults.skewMS)
        self.store = try MailStore(path: options.dataPath)
        self.authenticator = Authenticator(token: options.token,
                                           sessions: SessionStore(accounts: options.accounts, lifetime: options.sessionLifetime))
        if let seedFile = options.seedFile { try store.load(Self.readSeed(seedFile)) }
        if options.generateCount > 0 {
            var generator = InboxGenerator()
            try store.load(generator.generate(count: options.generateCount))
        }
    }

    /// Reads an inbox in seed 003's format.
    static func readSeed(_ path: String) throws -> [Email] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerStartError("cannot read seed file \(path)")
        }
        do {
            return try JSONDecoder().decode(InboxDocument.self, from: data).inbox
        } catch {
            throw ServerStartError("seed file \(path) is not an inbox document {\"inbox\":[…]}: \(error)")
        }
    }

    /// The protocol's resources (health, inbox, messages, time) with the auth and error
    /// middleware: what `run` serves, and what tests drive in-process.
    public func routes() -> Router<BasicRequestContext> {
        ServerRoutes.build(store: store, clock: clock, hub: hub, options: options, authenticator: authenticator)
    }

    /// Serves until SIGINT or SIGTERM. `onListening` gets the bound address once the socket is open.
    public func run(onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void) async throws {
        let responder = routes().buildResponder()
        let injector = FaultInjector(plan: options.faults)
        let session = WebSocketSession(hub: hub, clock: clock, logger: logger)
        let authenticator = self.authenticator
        let portal = options.faults.portal
        let idleTimeout = TimeAmount(options.idleTimeout)
        let shouldUpgrade: @Sendable (HTTPRequest, any Channel, Logger) async throws -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> = { request, _, _ in
            guard request.path?.split(separator: "?").first == "/ws", !portal,
                authenticator.authorizes(request.headerFields[.authorization])
            else { return .dontUpgrade }
            return .upgrade([:]) { inbound, outbound, _ in
                try await session.run(inbound: inbound, outbound: outbound)
            }
        }
        // Idle connections close after idleTimeout, and so does one whose first request head
        // does not arrive in that time (half-sent, trickled).
        let builder = HTTPServerBuilder { responder in
            HeadDeadlineChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: .init(http1: .init(idleTimeout: idleTimeout)),
                                                    shouldUpgrade: shouldUpgrade),
                timeout: idleTimeout)
        }
        let logger = self.logger
        let clock = self.clock
        let latency = options.faults.latencyMS
        let (host, port) = (options.host, options.port)
        let frozenDate = options.faults.frozenDate ? clock.httpDate() : nil
        let requestTimeout = TimeAmount(options.requestTimeout)
        let maxBodyBytes = options.maxBodyBytes
        // Requests taken and not yet answered: what a shutdown past its grace cuts.
        let unanswered = Mutex(0)
        let server = try builder.buildServer(
            configuration: ServerConfiguration(address: .hostname(host, port: port)),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger
        ) { request, responseWriter, channel in
            unanswered.withLock { $0 += 1 }
            // Done with, answered or closed on purpose; one the shutdown cancelled stays counted.
            defer { if !Task.isCancelled { unanswered.withLock { $0 -= 1 } } }
            if latency > 0 { try await Task.sleep(for: .milliseconds(latency)) }
            // The body and the answer within requestTimeout of the head, whatever the client
            // trickles: the connection is closed at the deadline.
            let deadline = channel.eventLoop.scheduleTask(in: requestTimeout) {
                logger.debug("closing a connection whose request was not done within the request timeout")
                channel.close(promise: nil)
            }
            defer { deadline.cancel() }
            // The whole body is read here, before any route answers: a route that answers
            // without reading it (a missing header) would leave the server draining a trickled
            // body after the deadline was done. Routes then read it from memory.
            var request = request
            do {
                _ = try await request.collectBody(upTo: maxBodyBytes)
            } catch {
                var tooLarge = JSONResponse.make(APIErrorBody(code: "bodyTooLarge", message: "the body is larger than \(maxBodyBytes) bytes"),
                                                 status: .contentTooLarge)
                tooLarge.headers[.connection] = "close"
                try? await responseWriter.write(response: tooLarge.head, body: tooLarge.body)
                try? await channel.close()
                return
            }
            var response: Response
            if portal {
                response = Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                                    body: .init(byteBuffer: ByteBuffer(string: ServerRoutes.portalPage)))
            } else if let failure = injector.failure() {
                response = Self.failureResponse(failure)
            } else {
                let context = BasicRequestContext(source: .init(channel: channel, logger: logger))
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch {
                    logger.error("unhandled error: \(error)")
                    response = JSONResponse.make(APIErrorBody(code: "internal", message: "internal error"), status: .internalServerError)
                }
                if injector.dropsResponse() {
                    logger.debug("fault: dropping the response to \(request.method) \(request.uri.path)")
                    try? await channel.close()
                    return
                }
            }
            response.headers[.date] = frozenDate ?? clock.httpDate()
            try await responseWriter.write(response: response.head, body: response.body)
        } onServerRunning: { channel in
            await onListening(host, channel.localAddress?.port ?? port)
        }
        var configuration = ServiceGroupConfiguration(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // A shutdown waits for the requests in flight only so long (an injected latency of
        // minutes held it for minutes), then cancels them and says how many.
        configuration.maximumGracefulShutdownDuration = options.shutdownGrace
        try await ServiceGroup(configuration: configuration).run()
        let cut = unanswered.withLock { $0 }
        if cut > 0 {
            FileHandle.standardError.write(Data("conn-server: stopped after \(String(format: "%g", Double(options.shutdownGrace.components.seconds) + Double(options.shutdownGrace.components.attoseconds) / 1e18)) s, cutting \(cut) request\(cut == 1 ? "" : "s") in flight\n".utf8))
        }
    }

    static func failureResponse(_ failure: FaultInjector.Failure) -> Response {
        switch failure {
        case .internalError:
            JSONResponse.make(APIErrorBody(code: "injectedFailure", message: "injected failure (--fail-rate)"), status: .internalServerError)
        case .unavailable(let seconds):
            JSONResponse.make(APIErrorBody(code: "injectedUnavailable", message: "injected failure (--fail-rate); retry later"),
                              status: .serviceUnavailable, headers: [.retryAfter: String(seconds)])
        }
    }
}

/// A problem that stops the server from starting (bad seed file, unusable data path).
public struct ServerStartError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
