// nio-floor FILE CONCURRENCY
//
// For each http://IPv4:PORT/PATH line of FILE, CONCURRENCY at a time: a GET on a kept-alive
// connection to that host and port (one taken from the idle ones, or a new one), the answer's
// status counted; a refused connection counted. Nothing else: no DNS, no route look-up, no
// report per target. It is built as conn's probe is (one Swift task per target, one hand-off
// to the channel's event loop per target, the same SwiftNIO handlers), so the distance between
// its time and conn's is conn's own work, and the distance between it and curl is SwiftNIO's.
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

struct Target: Sendable {
    let address: SocketAddress
    let key: String
    let head: HTTPRequestHead
}

final class Answer: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    var promise: EventLoopPromise<Int>?
    var status = 0
    var keepAlive = true

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            keepAlive = head.isKeepAlive
        case .body:
            break
        case .end:
            let promise = self.promise
            self.promise = nil
            promise?.succeed(status)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        keepAlive = false
        fail(ChannelError.ioOnClosedChannel)
    }

    private func fail(_ error: any Error) {
        let promise = self.promise
        self.promise = nil
        promise?.fail(error)
    }
}

struct Connection: Sendable {
    let channel: any Channel
    let answer: Answer
}

final class Pool: Sendable {
    private let idle = Mutex<[String: [Connection]]>([:])
    func take(_ key: String) -> Connection? { idle.withLock { $0[key]?.popLast() } }
    func keep(_ connection: Connection, _ key: String) { idle.withLock { $0[key, default: []].append(connection) } }
    func closeAll() async {
        let all = idle.withLock { pool in defer { pool = [:] }; return pool.values.flatMap { $0 } }
        guard let first = all.first else { return }
        let closes = all.map { $0.channel.close() }
        try? await EventLoopFuture.andAllComplete(closes, on: first.channel.eventLoop).get()
    }
}

func send(_ target: Target, on connection: Connection, pool: Pool) -> EventLoopFuture<Int> {
    let promise = connection.channel.eventLoop.makePromise(of: Int.self)
    connection.answer.promise = promise
    connection.channel.write(HTTPClientRequestPart.head(target.head), promise: nil)
    connection.channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    return promise.futureResult.always { result in
        if case .success = result, connection.answer.keepAlive { pool.keep(connection, target.key) } else { connection.channel.close(promise: nil) }
    }
}

/// The status, or -1 for a refused (or otherwise failed) connection.
func get(_ target: Target, pool: Pool) async -> Int {
    if let idle = pool.take(target.key) {
        if let status = try? await idle.channel.eventLoop.flatSubmit({ send(target, on: idle, pool: pool) }).get() { return status }
    }
    let answer = Answer()
    let outcome = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton.next())
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                try channel.pipeline.syncOperations.addHandler(answer)
            }
        }
        .connect(to: target.address)
        .flatMap { send(target, on: Connection(channel: $0, answer: answer), pool: pool) }
    return (try? await outcome.get()) ?? -1
}

func parse(_ line: Substring) -> Target? {
    guard line.hasPrefix("http://") else { return nil }
    let rest = line.dropFirst(7)
    let slash = rest.firstIndex(of: "/") ?? rest.endIndex
    let hostPort = rest[..<slash].split(separator: ":")
    guard hostPort.count == 2, let port = Int(hostPort[1]),
        let address = try? SocketAddress(ipAddress: String(hostPort[0]), port: port)
    else { return nil }
    let path = slash == rest.endIndex ? "/" : String(rest[slash...])
    var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
    head.headers.add(name: "Host", value: String(rest[..<slash]))
    head.headers.add(name: "Accept", value: "*/*")
    return Target(address: address, key: String(rest[..<slash]), head: head)
}

/// The whole file, or nil when it cannot be read.
func readFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return nil }
        if count == 0 { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(contentsOf: chunk[..<count])
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let text = readFile(arguments[1]), let concurrency = Int(arguments[2]), concurrency > 0
else {
    print("usage: nio-floor FILE CONCURRENCY")
    exit(64)
}
let targets = text.split(separator: "\n").compactMap(parse)
let pool = Pool()
let (answered, refused) = await withTaskGroup(of: Int.self) { group in
    var next = 0
    var answered = 0
    var refused = 0
    while next < min(concurrency, targets.count) {
        let target = targets[next]
        group.addTask { await get(target, pool: pool) }
        next += 1
    }
    while let status = await group.next() {
        if status < 0 { refused += 1 } else { answered += 1 }
        if next < targets.count {
            let target = targets[next]
            group.addTask { await get(target, pool: pool) }
            next += 1
        }
    }
    return (answered, refused)
}
await pool.closeAll()
print("\(targets.count) targets: \(answered) answered, \(refused) refused")
