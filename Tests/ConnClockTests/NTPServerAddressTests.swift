@testable import ConnClock
import Testing

@Suite("--ntp-server addresses")
struct NTPServerAddressTests {
    @Test("host, host:port, IPv6 with and without brackets", arguments: [
        ("pool.ntp.org", "pool.ntp.org", 123),
        ("127.0.0.1:1123", "127.0.0.1", 1123),
        ("[::1]", "::1", 123),
        ("[::1]:1123", "::1", 1123),
        ("fe80::1", "fe80::1", 123),
    ])
    func valid(text: String, host: String, port: Int) throws {
        let parsed = try #require(ClockOffsetMeasurement.hostAndPort(text, defaultPort: 123))
        #expect(parsed.0 == host && parsed.1 == port)
    }

    @Test("a port that is not 1-65535 is refused, not silently replaced by 123", arguments: [
        "host:abc", "host:0", "host:65536", "host:", ":123", "[::1]:x", "[::1]x", "", "[::1", "[zz]", "[zz]:123", "::1]",
    ])
    func invalid(text: String) {
        #expect(ClockOffsetMeasurement.hostAndPort(text, defaultPort: 123) == nil)
    }
}
