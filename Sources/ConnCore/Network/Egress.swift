import Foundation
import NIOCore
import NIOPosix

/// Which way out a connection takes: `--interface NAME|ADDRESS` (curl's option: a device the
/// socket is bound to with SO_BINDTODEVICE, so only that interface's routes apply, or a local
/// address it is bound to) and `-4`/`-6` (one address family). `Egress.any` leaves both to the
/// kernel.
public struct Egress: Sendable, Hashable {
    public enum Family: Int, Sendable, Hashable {
        case ipv4 = 4
        case ipv6 = 6
    }

    /// A device name (`eth0`, `wlan0`, `wwan0`).
    public var interface: String?
    /// A local address to bind to.
    public var sourceAddress: String?
    public var family: Family?

    public init(interface: String? = nil, sourceAddress: String? = nil, family: Family? = nil) {
        self.interface = interface
        self.sourceAddress = sourceAddress
        self.family = family
    }

    public static let any = Egress()

    public var isAny: Bool { self == .any }

    /// The longest device name Linux has (IFNAMSIZ less the terminating NUL).
    static let maximumNameLength = 15

    /// Reads `--interface`, `-4` and `-6`, checked against this machine's interfaces: a name
    /// that no interface has, an address none holds, or a family the address is not of is 64
    /// saying which interfaces and addresses there are.
    public static func parse(interface text: String?, ipv4: Bool, ipv6: Bool,
                             interfaces: [LocalInterface] = LocalInterface.current()) throws -> Egress {
        if ipv4 && ipv6 {
            throw ConnError.usage("-4 and -6 together: choose one address family", hint: "Leave both out to let conn use either.")
        }
        var egress = Egress(family: ipv4 ? .ipv4 : ipv6 ? .ipv6 : nil)
        guard let text else { return egress }
        let names = interfaces.map(\.name)
        let listed = names.isEmpty ? "none" : names.joined(separator: ", ")
        if let bytes = AddressBytes.parse(text) {
            let family: Family = bytes.count == 4 ? .ipv4 : .ipv6
            if let asked = egress.family, asked != family {
                throw ConnError.usage("--interface \(text) is an IPv\(family.rawValue) address, and -\(asked.rawValue) asks for IPv\(asked.rawValue)",
                                      hint: "Give an IPv\(asked.rawValue) address of this machine, or leave out -\(asked.rawValue).")
            }
            guard interfaces.contains(where: { $0.addresses.contains { AddressBytes.parse($0) == bytes } }) else {
                let held = interfaces.flatMap { interface in interface.addresses.map { "\($0) (\(interface.name))" } }
                throw ConnError.usage("--interface \(text): no interface of this machine has that address",
                                      hint: "Addresses here: \(held.isEmpty ? "none" : held.joined(separator: ", ")).")
            }
            egress.sourceAddress = text
            egress.family = family
            return egress
        }
        guard !text.isEmpty, text.utf8.count <= maximumNameLength, !text.contains("/"), !text.contains(where: \.isWhitespace) else {
            throw ConnError.usage("--interface '\(TerminalSanitizer.sanitize(text, keepNewlines: false))' is neither an interface name (at most \(maximumNameLength) characters) nor an IP address",
                                  hint: "Interfaces here: \(listed).")
        }
        guard names.contains(text) else {
            throw ConnError.usage("--interface \(text): this machine has no interface of that name", hint: "Interfaces here: \(listed).")
        }
        egress.interface = text
        return egress
    }

    /// Whether an address of `family` (4 or 6) may be used.
    public func allows(family number: Int) -> Bool {
        family.map { $0.rawValue == number } ?? true
    }

    /// Binds a socket that is about to connect: to the device (SO_BINDTODEVICE) or to the
    /// source address (port 0). 0, or the errno of what failed.
    public func apply(toDescriptor descriptor: Int32, family socketFamily: Int32) -> Int32 {
        if let interface {
            var name = Array(interface.utf8CString)
            if setsockopt(descriptor, SOL_SOCKET, SO_BINDTODEVICE, &name, socklen_t(name.count)) != 0 { return errno }
        }
        if let sourceAddress, let address = try? SocketAddress(ipAddress: sourceAddress, port: 0),
           Int32(address.protocol.rawValue) == socketFamily {
            let bound = address.withSockAddr { pointer, length in Glibc.bind(descriptor, pointer, socklen_t(length)) }
            if bound != 0 { return errno }
        }
        return 0
    }

    /// The same for a NIO client without a channel initializer of its own.
    public func applied(to bootstrap: ClientBootstrap) -> ClientBootstrap {
        let bootstrap = boundToSource(bootstrap)
        guard interface != nil else { return bootstrap }
        return bootstrap.channelInitializer { channel in prepare(channel) }
    }

    /// A bootstrap bound to the source address, if there is one.
    public func boundToSource(_ bootstrap: ClientBootstrap) -> ClientBootstrap {
        guard let sourceAddress, let address = try? SocketAddress(ipAddress: sourceAddress, port: 0) else { return bootstrap }
        return bootstrap.bind(to: address)
    }

    /// Binds a new channel to the device, if there is one: first in a channel initializer.
    public func prepare(_ channel: any Channel) -> EventLoopFuture<Void> {
        guard let interface else { return channel.eventLoop.makeSucceededVoidFuture() }
        return Self.bind(channel, toDevice: interface)
    }

    /// SO_BINDTODEVICE on a channel's socket (before it connects).
    public static func bind(_ channel: any Channel, toDevice interface: String) -> EventLoopFuture<Void> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        // The option's value is the name, NUL-terminated, in IFNAMSIZ (16) bytes.
        var name: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &name) { buffer in
            for (index, byte) in interface.utf8.prefix(maximumNameLength).enumerated() { buffer[index] = byte }
        }
        return provider.unsafeSetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_BINDTODEVICE), value: name)
    }

    /// The first address of `host` the way out allows (-4, -6), resolved with a deadline.
    public func firstAddress(of host: String, port: Int, timeout: Duration) async throws -> SocketAddress {
        switch await NameResolver.resolve(host: host, port: port, timeout: timeout) {
        case .success(let found):
            guard let usable = found.first(where: { allows(family: $0.family) }), let address = usable.socketAddress else {
                throw ConnError.unavailable(.nxdomain, "\(host) has no IPv\(family?.rawValue ?? 4) address (\(description))")
            }
            return address
        case .failure(.timeout):
            throw ConnError.temporary(.timeout, "the name \(host) could not be resolved within \(TimeFormatting.duration(timeout))")
        case .failure(.notFound):
            throw ConnError.unavailable(.nxdomain, "the name \(host) does not resolve", hint: "Check the spelling, or the DNS settings.")
        case .failure(.other(let why)):
            throw ConnError.unavailable(.nxdomain, "the name \(host) could not be resolved: \(why)")
        }
    }

    /// Connects `bootstrap` to `host`:`port`; with -4/-6 the name is resolved here, to an
    /// address of that family.
    public func dial(_ bootstrap: ClientBootstrap, host: String, port: Int, timeout: Duration) async throws -> any Channel {
        guard family != nil else { return try await bootstrap.connect(host: host, port: port).get() }
        return try await bootstrap.connect(to: try await firstAddress(of: host, port: port, timeout: timeout)).get()
    }

    /// How the options read back: `--interface eth0 -4`; empty for `any`.
    public var arguments: [String] {
        (interface.map { ["--interface", $0] } ?? sourceAddress.map { ["--interface", $0] } ?? [])
            + (family.map { ["-\($0.rawValue)"] } ?? [])
    }

    /// Said in a rung's detail: "bound to eth0", "from 10.0.0.2", "IPv6 only".
    public var description: String {
        var parts: [String] = []
        if let interface { parts.append("bound to \(interface)") }
        if let sourceAddress { parts.append("from \(sourceAddress)") }
        if let family, sourceAddress == nil { parts.append("IPv\(family.rawValue) only") }
        return parts.joined(separator: ", ")
    }
}

/// An interface of this machine as `--interface` and `--each-interface` see it (getifaddrs).
public struct LocalInterface: Sendable, Equatable {
    public var name: String
    public var up: Bool
    public var running: Bool
    public var loopback: Bool
    /// Numeric addresses, link-local ones included.
    public var addresses: [String]

    public init(name: String, up: Bool, running: Bool, loopback: Bool, addresses: [String]) {
        self.name = name
        self.up = up
        self.running = running
        self.loopback = loopback
        self.addresses = addresses
    }

    /// Addresses a connection out could come from (not link-local).
    public var usableAddresses: [String] {
        addresses.filter { !$0.lowercased().hasPrefix("fe80") && !$0.hasPrefix("169.254.") }
    }

    public static func current() -> [LocalInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var byName: [String: LocalInterface] = [:]
        var order: [String] = []
        var cursor = list
        while let entry = cursor?.pointee {
            let name = String(cString: entry.ifa_name)
            let flags = Int32(bitPattern: entry.ifa_flags)
            if byName[name] == nil {
                order.append(name)
                byName[name] = LocalInterface(name: name, up: flags & Int32(IFF_UP) != 0, running: flags & Int32(IFF_RUNNING) != 0,
                                              loopback: flags & Int32(IFF_LOOPBACK) != 0, addresses: [])
            }
            if let address = entry.ifa_addr {
                let family = Int32(address.pointee.sa_family)
                if family == AF_INET || family == AF_INET6 {
                    let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
                    if let text = NameResolver.numericHost(address, length: length) {
                        byName[name]?.addresses.append(String(text.split(separator: "%").first ?? Substring(text)))
                    }
                }
            }
            cursor = entry.ifa_next
        }
        return order.compactMap { byName[$0] }
    }
}
