import ArgumentParser
import Foundation

/// Where `--metrics-listen` binds: `PORT` or `:PORT` (loopback), `HOST:PORT`, `[IPv6]:PORT`.
/// HOST is an IP literal or `localhost`; all interfaces (`0.0.0.0`, `::`) only when written out.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible, ExpressibleByArgument {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public init?(argument: String) {
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
    }

    /// Parses `text`, or says what is wrong with it.
    public static func parse(_ text: String) throws(ListenAddressError) -> ListenAddress {
        var host = "127.0.0.1"
        var portText = text
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ListenAddressError(text: text, reason: "an IPv6 address is written [ADDRESS]:PORT")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = String(text[text.index(close, offsetBy: 2)...])
        } else if let colon = text.lastIndex(of: ":") {
            let written = String(text[..<colon])
            if !written.isEmpty { host = written == "localhost" ? "127.0.0.1" : written }
            portText = String(text[text.index(after: colon)...])
        }
        // 0: the kernel picks a free port, which the command prints ("metrics: http://…").
        guard let port = Int(portText), (0...65_535).contains(port) else {
            throw ListenAddressError(text: text, reason: "the port must be a number from 0 (any free one) to 65535")
        }
        guard Self.isIPLiteral(host) else {
            throw ListenAddressError(text: text, reason: "the host must be an IP address or localhost")
        }
        return ListenAddress(host: host, port: port)
    }

    private static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public static var defaultValueDescription: String { "127.0.0.1:PORT" }
}

public struct ListenAddressError: Error, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "'\(text)' is not an address to listen on: \(reason) (for example 9464, 127.0.0.1:9464, [::1]:9464, 0.0.0.0:9464)" }
}
