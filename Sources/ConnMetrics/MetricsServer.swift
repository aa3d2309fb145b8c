import ConnCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The HTTP listener of `--metrics-listen`: one small HTTP/1.1 server on SwiftNIO (already in
/// conn; no web framework for two resources). Each request is answered by `respond`; bodies of
/// requests are not read (a scrape has none) beyond a small limit.
public struct MetricsServer: Sendable {
    public struct Request: Sendable {
        public var method: HTTPMethod
        public var path: String
        /// The query's parameters (the first of each name), percent-decoded.
        public var query: [String: String]
        public var headers: HTTPHeaders
    }

    public struct Response: Sendable {
        public var status: HTTPResponseStatus
        public var contentType: String
        public var body: String
        /// Headers besides Content-Type, Content-Length and Connection (WWW-Authenticate).
        public var headers: [(String, String)]

        public init(status: HTTPResponseStatus, contentType: String = "text/plain; charset=utf-8", body: String, headers: [(String, String)] = []) {
            self.status = status
            self.contentType = contentType
            self.body = body
            self.headers = headers
        }
    }

    private let channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let task: Task<Void, Never>
    private let connections: AcceptedConnections
    /// The address it listens on, with the port the kernel chose for port 0.
    public let address: ListenAddress

    /// Listens at `address` (with TLS when `tls` is given); a port that is taken (or an address
    /// not of this machine) is a `listenFailed` error (69) naming it. Connections are held to
    /// `limits`; `onLimit` hears how many were closed at the connection limit (at the first, then
    /// at most once a minute).
    public static func start(at address: ListenAddress, tls: TLSConfiguration? = nil, limits: ListenerLimits = .standard,
                             onLimit: (@Sendable (Int) -> Void)? = nil,
                             respond: @escaping @Sendable (Request) async -> Response) async throws -> MetricsServer {
        let channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
        let sslContext: NIOSSLContext?
        do { sslContext = try tls.map(NIOSSLContext.init(configuration:)) } catch {
            throw ConnError.configuration("the TLS settings of --web-config-file cannot be used: \(error)")
        }
        let connections = AcceptedConnections(limit: limits.connections, onLimit: onLimit)
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: address.host, port: address.port) { child in
                    child.eventLoop.makeCompletedFuture {
                        connections.admit(child)
                        if let sslContext { try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext)) }
                        try child.pipeline.syncOperations.configureHTTPServerPipeline()
                        try child.pipeline.syncOperations.addHandler(RequestDeadlineHandler(limits: limits, connections: connections))
                        return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: child)
                    }
                }
        } catch {
            throw ConnError(code: .listenFailed, message: "cannot listen on \(address) for metrics: \(Self.reason(error))",
                            hint: "Choose another port with --metrics-listen, or stop what listens there.", exitStatus: .unavailable)
        }
        let bound = ListenAddress(host: address.host, port: channel.channel.localAddress?.port ?? address.port)
        let task = Task<Void, Never> {
            _ = try? await channel.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        group.addTask { await serve(connection, respond: respond) }
                    }
                }
            }
        }
        return MetricsServer(channel: channel, task: task, connections: connections, address: bound)
    }

    private init(channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>, task: Task<Void, Never>,
                 connections: AcceptedConnections, address: ListenAddress) {
        self.channel = channel
        self.task = task
        self.connections = connections
        self.address = address
    }

    /// Answers the requests of one connection in turn (keep-alive, as Prometheus scrapes).
    private static func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>,
                              respond: @escaping @Sendable (Request) async -> Response) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let received):
                    head = received
                case .body:
                    continue
                case .end:
                    guard let request = head else { return }
                    head = nil
                    let response: Response
                    if let parsed = Self.request(from: request) {
                        response = await respond(parsed)
                    } else {
                        response = Response(status: .badRequest, body: "the request's target is not a path\n")
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Content-Type", value: response.contentType)
                    headers.add(name: "Content-Length", value: String(response.body.utf8.count))
                    let keepAlive = request.isKeepAlive
                    headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
                    for (name, value) in response.headers { headers.add(name: name, value: value) }
                    try await outbound.write(.head(HTTPResponseHead(version: request.version, status: response.status, headers: headers)))
                    if request.method != .HEAD { try await outbound.write(.body(.byteBuffer(ByteBuffer(string: response.body)))) }
                    try await outbound.write(.end(nil))
                    if !keepAlive { return }
                }
            }
        }
    }

    static func request(from head: HTTPRequestHead) -> Request? {
        guard head.uri.hasPrefix("/"), let components = URLComponents(string: head.uri) else { return nil }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] where query[item.name] == nil { query[item.name] = item.value ?? "" }
        return Request(method: head.method, path: components.path, query: query, headers: head.headers)
    }

    private static func reason(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        return "\(error)"
    }

    /// Stops listening; every connection accepted (a scrape kept alive, one queued) is closed and
    /// taken to its end, none left for NIO to trap on (`AcceptedConnections`).
    public func stop() async {
        await connections.stop(listening: channel.channel)
    }
}
