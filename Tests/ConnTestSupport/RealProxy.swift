import ConnCore
import Foundation

/// A real proxy from Debian, started on a free loopback port with a configuration of the test's
/// own: tinyproxy (HTTP, CONNECT; basic authentication when given a user) or microsocks
/// (SOCKS5, user/password when given), dante-server (SOCKS5 with access rules) or squid (HTTP,
/// CONNECT, basic authentication through basic_ncsa_auth). Stopped with `stop()`, or SIGKILLed
/// when dropped (dante's helper processes end with it).
public final class RealProxy: @unchecked Sendable {
    public static let tinyproxyPath = "/usr/bin/tinyproxy"
    public static let microsocksPath = "/usr/bin/microsocks"
    public static var hasTinyproxy: Bool { FileManager.default.isExecutableFile(atPath: tinyproxyPath) }
    public static var hasMicrosocks: Bool { FileManager.default.isExecutableFile(atPath: microsocksPath) }
    public static let squidPath = "/usr/sbin/squid"
    public static let ncsaAuthPath = "/usr/lib/squid/basic_ncsa_auth"
    public static var hasSquid: Bool { FileManager.default.isExecutableFile(atPath: squidPath) && FileManager.default.isExecutableFile(atPath: ncsaAuthPath) }

    public let port: Int
    /// The proxy's log (tinyproxy's, squid's access log, dante's): the connections it made; empty for microsocks.
    public let logFile: String
    /// An https:// proxy's certificate (self-signed: it is its own CA); nil for the others.
    public let caFile: String?
    private let process: SpawnedProcess

    /// tinyproxy on 127.0.0.1, allowing CONNECT to every port, asking for `user`/`password` if given.
    /// `connectPorts`: the only ports CONNECT may reach (tinyproxy's ConnectPort; empty: any).
    public static func tinyproxy(in directory: TemporaryDirectory, user: String? = nil, password: String? = nil,
                                 connectPorts: [Int] = []) async throws -> RealProxy {
        try await onAFreePort { port in
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
    }

    /// squid on 127.0.0.1, with no cache, asking for basic credentials checked by
    /// `basic_ncsa_auth` against a password file holding `user`/`password`. Its access log
    /// (`logFile`) names each CONNECT, its status and the user.
    ///
    /// `tls`: an https:// proxy — squid's https_port, TLS to the proxy itself, with a fresh
    /// self-signed certificate for 127.0.0.1 (CN conn-test-proxy) in `caFile`.
    public static func squid(in directory: TemporaryDirectory, user: String, password: String, tls: Bool = false) async throws -> RealProxy {
        try await onAFreePort { port in
            // squid started as root runs as the user `proxy`: its directory must be open to it.
            let own = directory.path + "/squid-\(port)"
            try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
            var listen = "http_port 127.0.0.1:\(port)"
            var caFile: String?
            if tls {
                let key = own + "/proxy-key.pem", certificate = own + "/proxy-cert.pem"
                let made = try await ConnProcess.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                                                                          "-days", "1", "-subj", "/CN=conn-test-proxy",
                                                                          "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                                                     environment: ["PATH": "/usr/bin:/bin"])
                guard made.exitCode == 0 else { throw ProxyDidNotStart(executable: "openssl req (\(made.standardError))", port: port) }
                for path in [key, certificate] { try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
                listen = "https_port 127.0.0.1:\(port) tls-cert=\(certificate) tls-key=\(key)"
                caFile = certificate
            }
            let hashed = try await ConnProcess.run("/usr/bin/openssl", ["passwd", "-apr1", password], environment: ["PATH": "/usr/bin:/bin"])
            let passwords = own + "/passwords"
            try "\(user):\(hashed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))\n".write(toFile: passwords, atomically: true, encoding: .utf8)
            let log = own + "/access.log"
            let configuration = """
                \(listen)
                pid_filename \(own)/squid.pid
                access_log stdio:\(log)
                cache_log \(own)/cache.log
                cache_store_log none
                coredump_dir \(own)
                cache deny all
                auth_param basic program \(ncsaAuthPath) \(passwords)
                auth_param basic realm conn-test
                acl authenticated proxy_auth REQUIRED
                http_access allow authenticated
                http_access deny all
                shutdown_lifetime 0 seconds

                """
            let file = own + "/squid.conf"
            try configuration.write(toFile: file, atomically: true, encoding: .utf8)
            for path in [passwords, file] { try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
            return try await RealProxy(squidPath, ["-N", "-f", file], port: port, logFile: log, caFile: caFile)
        }
    }

    /// Debian's squid as installed: the access rules of its stock /etc/squid/squid.conf (CONNECT
    /// to port 443 only, requests to the "safe" ports, from localhost), on a free loopback port
    /// with files of the test's own. Its access log (`logFile`) has a line per request.
    public static func stockSquid(in directory: TemporaryDirectory) async throws -> RealProxy {
        let stock = try String(contentsOfFile: "/etc/squid/squid.conf", encoding: .utf8)
        let rules = stock.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
            !line.isEmpty && !line.hasPrefix("#") && !["http_port", "include", "coredump_dir", "refresh_pattern"].contains { line.hasPrefix($0) }
        }
        guard rules.contains("http_access deny CONNECT !SSL_ports") else {
            throw ProxyDidNotStart(executable: "squid (its stock squid.conf no longer has 'http_access deny CONNECT !SSL_ports')", port: 0)
        }
        // A port below the automatic range: squid takes a second to bind, and a port-0 bind of
        // another proxy started meanwhile could be handed the same one.
        return try await onAFreePort(choosing: HTTPPorts.outsideAutomaticRange) { port in
            let own = directory.path + "/squid-stock-\(port)"
            try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
            let log = own + "/access.log"
            let configuration = """
                http_port 127.0.0.1:\(port)
                pid_filename \(own)/squid.pid
                access_log stdio:\(log)
                cache_log \(own)/cache.log
                cache_store_log none
                coredump_dir \(own)
                cache deny all
                shutdown_lifetime 0 seconds

                """ + rules.joined(separator: "\n") + "\n"
            let file = own + "/squid.conf"
            try configuration.write(toFile: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
            return try await RealProxy(squidPath, ["-N", "-f", file], port: port, logFile: log)
        }
    }

    /// microsocks (SOCKS5) on 127.0.0.1; with `user`, it asks for that user and `password`
    /// (RFC 1929) and takes no connection without them.
    public static func microsocks(user: String? = nil, password: String? = nil) async throws -> RealProxy {
        try await onAFreePort { port in
            let credentials = user.map { ["-u", $0, "-P", password ?? ""] } ?? []
            return try await RealProxy(microsocksPath, ["-i", "127.0.0.1", "-p", String(port)] + credentials, port: port, logFile: "")
        }
    }

    public static let dantePath = "/usr/sbin/danted"
    public static var hasDante: Bool { FileManager.default.isExecutableFile(atPath: dantePath) }

    /// dante-server (SOCKS5, no authentication) on 127.0.0.1, letting clients reach loopback
    /// only, and never `blockedPort` (its rules refuse it: SOCKS reply 2). Its log (`logFile`)
    /// has a line per connection it passed or blocked.
    public static func dante(in directory: TemporaryDirectory, blockedPort: Int) async throws -> RealProxy {
        try await onAFreePort { port in
            let own = directory.path + "/dante-\(port)"
            try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
            let log = own + "/danted.log"
            let configuration = """
                logoutput: \(log)
                internal: 127.0.0.1 port = \(port)
                external: 127.0.0.1
                clientmethod: none
                socksmethod: none
                user.unprivileged: nobody
                client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }
                socks block { from: 0.0.0.0/0 to: 0.0.0.0/0 port = \(blockedPort) log: connect error }
                socks pass { from: 127.0.0.0/8 to: 127.0.0.0/8 log: connect }

                """
            let file = own + "/danted.conf"
            try configuration.write(toFile: file, atomically: true, encoding: .utf8)
            return try await RealProxy(dantePath, ["-f", file], port: port, logFile: log)
        }
    }

    private init(_ executable: String, _ arguments: [String], port: Int, logFile: String, caFile: String? = nil) async throws {
        self.port = port
        self.logFile = logFile
        self.caFile = caFile
        process = try SpawnedProcess(executable, arguments)
        // Ready once it accepts a connection — and is still running a moment later: a proxy
        // that could not bind its port (another test's server took it between HTTPPorts.free()
        // and the bind) exits at once, while that server answers the connection.
        let ready = await poll(for: 10, every: .milliseconds(50)) { Self.accepts(port) ? true : nil }
        if ready == true { try await Task.sleep(for: .milliseconds(100)) }
        guard ready == true, process.isRunning else {
            process.signal(SIGKILL)
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

    /// Starts a proxy on a free port, on another if it could not have that one (three tries).
    private static func onAFreePort(choosing choose: () throws -> Int = HTTPPorts.free, _ start: (Int) async throws -> RealProxy) async throws -> RealProxy {
        var failure: (any Error)?
        for _ in 0..<3 {
            do { return try await start(try choose()) } catch let error as ProxyDidNotStart { failure = error }
        }
        throw failure ?? ProxyDidNotStart(executable: "the proxy", port: 0)
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
        var description: String { "\(executable) did not start listening on 127.0.0.1:\(port) within 10 s (or exited: the port taken)" }
    }
}
