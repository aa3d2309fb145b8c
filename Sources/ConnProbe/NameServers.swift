import ConnCore
import Foundation

/// The name servers the system resolver asks (/etc/resolv.conf's `nameserver` lines), to tell
/// a resolver that gave up at once because none can be reached from one that was not answered.
enum NameServers {
    static func configured(file: String = "/etc/resolv.conf") -> [ResolvedAddress] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 2, words[0] == "nameserver" else { return nil }
            let address = String(words[1].split(separator: "%").first ?? "")  // fe80::1%eth0
            guard let bytes = AddressBytes.parse(address) else { return nil }
            return ResolvedAddress(family: bytes.count == 16 ? 6 : 4, ip: address, port: 53)
        }
    }
}
