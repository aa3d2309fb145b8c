import Foundation

/// Name resolution with the system resolver (getaddrinfo, so /etc/hosts and nsswitch apply), on a
/// thread of its own so a slow resolver never blocks conn's tasks, with a deadline.
public enum NameResolver {
    public enum Failure: Error, Equatable, Sendable {
        /// The name does not exist.
        case notFound
        /// The resolver did not answer in time, or answered "try again".
        case timeout
        case other(String)
    }

    public static func resolve(host: String, port: Int, timeout: Duration) async -> Result<[ResolvedAddress], Failure> {
        let once = FirstCall()
        return await withCheckedContinuation { continuation in
            @Sendable func finish(_ result: Result<[ResolvedAddress], Failure>) {
                if once.claim() { continuation.resume(returning: result) }
            }
            // An alarm, so a fast answer leaves nothing queued behind (see `Alarm`).
            let deadline = Alarm(after: timeout) { finish(.failure(.timeout)) }
            // getaddrinfo cannot be cancelled: past the deadline its thread finishes on its own.
            Thread.detachNewThread {
                let result = lookup(host: host, port: port)
                deadline.cancel()
                finish(result)
            }
        }
    }

    private static func lookup(host: String, port: Int) -> Result<[ResolvedAddress], Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        switch status {
        case 0: break
        case EAI_NONAME, -5 /* EAI_NODATA: glibc has it, Swift does not import it */: return .failure(.notFound)
        case EAI_AGAIN: return .failure(.timeout)
        default: return .failure(.other(String(cString: gai_strerror(status))))
        }
        var addresses: [ResolvedAddress] = []
        var cursor = list
        while let entry = cursor?.pointee {
            if let address = entry.ai_addr, let ip = numericHost(address, length: entry.ai_addrlen) {
                let resolved = ResolvedAddress(family: entry.ai_family == AF_INET6 ? 6 : 4, ip: ip, port: port)
                if !addresses.contains(resolved) { addresses.append(resolved) }
            }
            cursor = entry.ai_next
        }
        return addresses.isEmpty ? .failure(.notFound) : .success(addresses)
    }

    public static func numericHost(_ address: UnsafePointer<sockaddr>, length: socklen_t) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
