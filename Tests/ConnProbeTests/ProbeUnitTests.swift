import ConnCore
import ConnTestSupport
import Foundation
import Testing

@testable import ConnProbe

@Suite("Probe targets")
struct ProbeTargetTests {
    @Test(arguments: [
        ("example.com", "example.com", 443, false),
        ("example.com:8080", "example.com", 8080, false),
        ("127.0.0.1:1", "127.0.0.1", 1, false),
        ("[::1]:8080", "::1", 8080, false),
        ("[fe80::1]", "fe80::1", 443, false),
        ("::1", "::1", 443, false),
        ("http://127.0.0.1:8080/health", "127.0.0.1", 8080, false),
        ("https://example.com/x?y=1", "example.com", 443, true),
        ("http://[::1]:9/", "::1", 9, false),
    ])
    func parses(_ text: String, _ host: String, _ port: Int, _ tls: Bool) throws {
        let target = try ProbeTarget.parse(text)
        #expect(target.host == host)
        #expect(target.port == port)
        #expect(target.usesTLS == tls)
        #expect(target.input == text)
    }

    @Test(arguments: [
        ("", "empty"),
        ("example.com:99999", "port 99999 is out of range"),
        ("example.com:http", "port 'http' is not a number"),
        ("example.com:0", "port 0 is out of range"),
        ("ftp://example.com", "only http and https"),
        ("http://example.com:99999/", "port 99999 is out of range"),
        ("http://:80/", "no host"),
        ("fe80::1:80:x", "must be written [address]:port"),
        ("[::1:80", "missing ']'"),
        ("[nope]:80", "not an IPv6 address"),
        ("bad host:80", "not a valid host name"),
        ("-x.example", "not a valid host name"),
        ("http://[zz]:80/", "malformed IPv6 address in brackets"),
        ("http://[:::1]:80/", "malformed IPv6 address in brackets"),
        ("https://[::1/", "malformed IPv6 address in brackets"),
    ])
    func rejectsWithAMessageNamingTheInput(_ text: String, _ fragment: String) {
        let error = #expect(throws: ConnError.self) { try ProbeTarget.parse(text) }
        #expect(error?.exitStatus == .usage)
        #expect(error?.message.contains("target '\(text.trimmingCharacters(in: .whitespaces))'") == true)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
    }

    @Test func targetFilesSkipCommentsAndNameBadLines() throws {
        let home = try TemporaryDirectory()
        let good = try home.write("targets", "# services\nexample.com:80\n\n  http://127.0.0.1:1/x  # inline comment\n")
        #expect(try ProbeCommand.readTargets(good).map(\.input) == ["example.com:80", "http://127.0.0.1:1/x"])
        let bad = try home.write("bad", "example.com:80\nexample.com:70000\n")
        let error = #expect(throws: ConnError.self) { try ProbeCommand.readTargets(bad) }
        #expect(error?.message.hasPrefix("\(bad):2: target 'example.com:70000'") == true)
        #expect(error?.exitStatus == .dataError)
        // A file saved with CRLF line ends reads the same; a UTF-8 name in a comment is skipped.
        let crlf = try home.write("crlf", "# für später\r\nexample.com:80\r\n\r\nhttp://127.0.0.1:1/x # zwei\r\n")
        #expect(try ProbeCommand.readTargets(crlf).map(\.input) == ["example.com:80", "http://127.0.0.1:1/x"])
        let empty = try home.write("empty", "# nothing\n\n")
        #expect((#expect(throws: ConnError.self) { try ProbeCommand.readTargets(empty) })?.code == .noTargets)
        // A missing file is 66 (noInput), as for send --file; the exit-code table (docs/guide/scripting.md) says so.
        let missing = #expect(throws: ConnError.self) { try ProbeCommand.readTargets(home.path + "/missing") }
        #expect(missing?.code == .noInput && missing?.exitStatus == .noInput, "\(String(describing: missing))")
        // Sizes before memory: an endless file ends with 65 after the cap, not with the OOM killer.
        let endless = #expect(throws: ConnError.self) { try ProbeCommand.readTargets("/dev/zero") }
        #expect(endless?.code == .fileTooLarge && endless?.exitStatus == .dataError, "\(String(describing: endless))")
    }

    @Test func internetEndpointsParse() throws {
        let plain = try InternetEndpoint.parse("http://example.com/generate_204")
        #expect(plain.status == 204 && plain.bodyContains == nil)
        let full = try InternetEndpoint.parse("http://1.1.1.1/cdn-cgi/trace=200:ip=")
        #expect(full.url.absoluteString == "http://1.1.1.1/cdn-cgi/trace" && full.status == 200 && full.bodyContains == "ip=")
        #expect(throws: ConnError.self) { try InternetEndpoint.parse("https://example.com/") }
        #expect(throws: ConnError.self) { try InternetEndpoint.parse("http://example.com/=999") }
        let query = try InternetEndpoint.parse("http://example.com/check?a=b=200:ok")
        #expect(query.url.absoluteString == "http://example.com/check?a=b" && query.status == 200 && query.bodyContains == "ok")
    }
}

@Suite("Interface kinds from sysfs")
struct InterfaceClassifierTests {
    /// Builds a fake /sys/class/net with one directory per interface.
    func tree(_ interfaces: [String: (type: Int, uevent: String, device: Bool, tun: Bool)]) throws -> TemporaryDirectory {
        let root = try TemporaryDirectory()
        for (name, spec) in interfaces {
            try root.write("\(name)/type", "\(spec.type)\n")
            try root.write("\(name)/uevent", spec.uevent)
            if spec.tun { try root.write("\(name)/tun_flags", "0x1002\n") }
            if spec.device {
                try root.write("devices/\(name)/vendor", "0x8086\n")
                try FileManager.default.createSymbolicLink(atPath: root.path + "/\(name)/device", withDestinationPath: root.path + "/devices/\(name)")
            }
        }
        return root
    }

    @Test func classifiesEachKind() throws {
        let root = try tree([
            "lo": (772, "INTERFACE=lo\n", false, false),
            "eth0": (1, "INTERFACE=eth0\n", true, false),
            "wlp2s0": (1, "DEVTYPE=wlan\nINTERFACE=wlp2s0\n", true, false),
            "wwan0": (1, "DEVTYPE=wwan\nINTERFACE=wwan0\n", true, false),
            "wg0": (65534, "DEVTYPE=wireguard\nINTERFACE=wg0\n", false, false),
            "tun0": (65534, "INTERFACE=tun0\n", false, true),
            "veth1": (1, "INTERFACE=veth1\n", false, false),
        ])
        let classifier = InterfaceClassifier(sysfsRoot: root.path)
        #expect(classifier.kind(of: "lo") == .loopback)
        #expect(classifier.kind(of: "eth0") == .ethernet)
        #expect(classifier.kind(of: "wlp2s0") == .wifi)
        #expect(classifier.kind(of: "wwan0") == .wwan)
        #expect(classifier.kind(of: "wg0") == .vpn)
        #expect(classifier.kind(of: "tun0") == .vpn)
        #expect(classifier.kind(of: "veth1") == .virtual)
        #expect(classifier.kind(of: "missing0") == .unknown)
    }

    @Test("a kind is read once per device: kept while the device (its index) lasts; a name with no device is read each time")
    func kindsAreKeptPerDevice() throws {
        // "lo" exists in every network namespace (index 1); "conn-none0" nowhere.
        let root = try tree(["lo": (772, "INTERFACE=lo\n", false, false), "conn-none0": (772, "INTERFACE=conn-none0\n", false, false)])
        let classifier = InterfaceClassifier(sysfsRoot: root.path)
        #expect(classifier.kind(of: "lo") == .loopback && classifier.kind(of: "conn-none0") == .loopback)
        try root.write("lo/type", "1\n")
        try root.write("conn-none0/type", "1\n")
        #expect(classifier.kind(of: "lo") == .loopback, "the device still has its index: its kind is not read again")
        #expect(classifier.kind(of: "conn-none0") == .virtual, "no device to tie the kind to: read again")
    }

    @Test func realLoopbackIsLoopback() {
        #expect(InterfaceClassifier().kind(of: "lo") == .loopback)
    }
}

@Suite("Internet verdict")
struct InternetVerdictTests {
    func result(_ verdict: String, dnsOK: Bool = true, address: String? = "192.0.2.1") -> ProbeResult {
        ProbeResult(target: "t", kind: "url", url: "http://x/", host: "x", port: 80, reachable: verdict == "reachable",
                    verdict: verdict, explanation: "", address: verdict == "nxdomain" ? nil : address,
                    rungs: [ProbeRung(name: "dns", ok: dnsOK, ms: 1, detail: "")], totalMs: 1)
    }

    /// ipv4/ipv6: true or false once tried that way, null only when not tried. An IP-literal
    /// endpoint that found no route has no address, but was tried: false, not null.
    @Test("ipv4/ipv6 are false for a literal that found no route, null only for a family never tried")
    func familiesTried() {
        var v6 = result("noRoute", address: nil)
        v6.host = "2001:db8::1"
        var v4 = result("reachable")
        v4.host = "192.0.2.1"
        let verdict = InternetCheck.judge([v4, v6])
        #expect(verdict.ipv4 == true && verdict.ipv6 == false, "\(verdict)")
        var name = result("nxdomain", dnsOK: false, address: nil)
        name.host = "example.com"
        let unresolved = InternetCheck.judge([v4, name])
        #expect(unresolved.ipv4 == true && unresolved.ipv6 == nil, "\(unresolved)")
    }

    @Test func judgesEachState() {
        #expect(InternetCheck.judge([result("reachable"), result("reachable")]).state == .online)
        #expect(InternetCheck.judge([result("nxdomain", dnsOK: false), result("reachable")]).state == .dnsBroken)
        #expect(InternetCheck.judge([result("unexpectedBody"), result("httpStatus")]).state == .portal(url: "http://x/"))
        #expect(InternetCheck.judge([result("noRoute"), result("noRoute")]).state == .offline(.noRoute))
        #expect(InternetCheck.judge([result("timeout"), result("refused")]).state == .limited)
        #expect(InternetCheck.judge([result("nxdomain", dnsOK: false), result("timeout", dnsOK: false)]).state == .dnsBroken)
    }

    @Test func judgesIPv4AndIPv6Separately() {
        let verdict = InternetCheck.judge([result("reachable", address: "192.0.2.1"), result("timeout", address: "2001:db8::1")])
        #expect(verdict.ipv4 == true)
        #expect(verdict.ipv6 == false)
    }
}

@Suite("Offline reasons")
struct OfflineReasonTests {
    typealias Interface = InterfaceScan.Interface
    let lo = Interface(name: "lo", up: true, running: true, loopback: true, usableAddresses: 2)

    @Test func eachReasonFromTheInterfaces() {
        #expect(InterfaceScan.offlineReason([lo]) == .noInterface)
        #expect(InterfaceScan.offlineReason([lo, Interface(name: "eth0", up: false, running: false, loopback: false, usableAddresses: 0)]) == .noInterface)
        #expect(InterfaceScan.offlineReason([lo, Interface(name: "eth0", up: true, running: false, loopback: false, usableAddresses: 1)]) == .noCarrier)
        #expect(InterfaceScan.offlineReason([lo, Interface(name: "eth0", up: true, running: true, loopback: false, usableAddresses: 0)]) == .noAddress)
        #expect(InterfaceScan.offlineReason([lo, Interface(name: "eth0", up: true, running: true, loopback: false, usableAddresses: 1)]) == .noRoute)
    }

    @Test func thisMachineHasLoopback() {
        #expect(InterfaceScan.current().contains { $0.loopback && $0.up })
    }
}
