import ConnCore
import Foundation

/// A real proxy from Debian, started on a free loopback port with a configuration of the test's
/// own: tinyproxy (HTTP, CONNECT; basic authentication when given a user) or microsocks
/// (SOCKS5). Stopped with `stop()`, or SIGKILLed when dropped.
public final class RealProxy: @unchecked Sendable {
    public static let tinyproxyPath = "/usr/bin/tinyproxy"
    public static let microsocksPath = "/usr/bin/microsocks"
    public static var hasTinyproxy: Bool { FileManager.default.isExecutableFile(atPath: tinyproxyPath) }
    public static var hasMicrosocks: Bool { FileManager.default.isExecutableFile(atPath: microsocksPath) }

    public let port: Int
    /// tinyproxy's log (the connections it made), empty for microsocks.
    public let logFile: String
    private let process: SpawnedProcess

    /// tinyproxy on 127.0.0.1, allowing CONNECT to every port, asking for `user`/`password` if given.
    /// `connectPorts`: the only ports CONNECT may reach (tinyproxy's ConnectPort; empty: any).
    public static func tinyproxy(in directory: TemporaryDirectory, user: String? = nil, password: String? = nil,
                                 connectPorts: [Int] = []) async throws -> RealProxy {
        let port = try HTTPPorts.free()
        let log = directory.path + "/tinyproxy-\(port).log"
        var configuration = """
            Port \(port)
            Listen 127.0.0.1
            Timeout 30
            Allow 127.0.0.1
            LogFile "\(log)"
            LogLevel Connect
            MaxClients 50

            """
        if let user, let password { configuration += "BasicAuth \(user) \(password)\n" }
        for allowed in connectPorts { configuration += "ConnectPort \(allowed)\n" }
        let file = try directory.write("tinyproxy-\(port).conf", configuration)
        return try await RealProxy(tinyproxyPath, ["-d", "-c", file], port: port, logFile: log)
    }

    /// microsocks (SOCKS5) on 127.0.0.1.
    public static func microsocks() async throws -> RealProxy {
        let port = try HTTPPorts.free()
        return try await RealProxy(microsocksPath, ["-i", "127.0.0.1", "-p", String(port)], port: port, logFile: "")
    }

    private init(_ executable: String, _ arguments: [String], port: Int, logFile: String) async throws {
        self.port = port
        self.logFile = logFile
        process = try SpawnedProcess(executable, arguments)
        // Ready once it accepts a connection.
        let ready = try await poll(for: 10, every: .milliseconds(50)) { Self.accepts(port) ? true : nil }
        guard ready == true else {
            process.terminate()
            throw ProxyDidNotStart(executable: executable, port: port)
        }
    }

    /// The log so far (tinyproxy).
    public var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// Ends the proxy at once (SIGKILL: tinyproxy takes its time over SIGTERM) and waits for it
    /// without holding a thread.
    public func stop() async {
        process.signal(SIGKILL)
        await process.exited(killingAfter: 10)
    }

    deinit {
        process.signal(SIGKILL)
    }

    static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    struct ProxyDidNotStart: Error, CustomStringConvertible {
        let executable: String
        let port: Int
        var description: String { "\(executable) did not listen on 127.0.0.1:\(port) within 10 s" }
    }
}
