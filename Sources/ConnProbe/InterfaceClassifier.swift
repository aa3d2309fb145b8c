import ConnCore
import Foundation
import Synchronization

/// Tells the kind of a network interface from sysfs (`/sys/class/net/NAME`), as a person would
/// name it. The root is injectable so tests can build a fake tree.
///
/// The rules: loopback by ARPHRD type 772; Wi-Fi and cellular by `DEVTYPE=wlan|wwan` in uevent;
/// VPNs by `DEVTYPE=wireguard`, a `tun_flags` file (tun/tap) or ARPHRD 65534 (none, as tun);
/// interfaces with no `device` link are virtual (veth, bridges, dummies); the rest of type 1 is
/// Ethernet.
public struct InterfaceClassifier: Sendable {
    public let sysfsRoot: String

    public init(sysfsRoot: String = "/sys/class/net") { self.sysfsRoot = sysfsRoot }

    /// Kinds already read, by sysfs directory and interface index: a device keeps its kind while
    /// it exists, and one made again under the same name gets a new index. Saves the sysfs reads
    /// of every round of `probe --count` and every look of a monitor.
    private static let known = Mutex<[String: (index: UInt32, kind: InterfaceKind)]>([:])

    public func kind(of interface: String) -> InterfaceKind {
        let directory = sysfsRoot + "/" + interface
        let index = if_nametoindex(interface)
        if index != 0, let known = Self.known.withLock({ $0[directory] }), known.index == index { return known.kind }
        let kind = readKind(directory)
        // Index 0: no such device here (a test's fake tree): nothing to tie the answer to.
        if index != 0 { Self.known.withLock { $0[directory] = (index, kind) } }
        return kind
    }

    private func readKind(_ directory: String) -> InterfaceKind {
        guard FileManager.default.fileExists(atPath: directory) else { return .unknown }
        let type = read(directory + "/type").flatMap { Int($0) }
        if type == 772 { return .loopback }
        let devtype = read(directory + "/uevent")?
            .split(separator: "\n").first { $0.hasPrefix("DEVTYPE=") }
            .map { String($0.dropFirst("DEVTYPE=".count)) }
        switch devtype {
        case "wlan": return .wifi
        case "wwan": return .wwan
        case "wireguard": return .vpn
        default: break
        }
        if FileManager.default.fileExists(atPath: directory + "/tun_flags") || type == 65534 { return .vpn }
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/device")) == nil { return .virtual }
        return type == 1 ? .ethernet : .unknown
    }

    private func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8)).map { String($0.trimmingWhitespace()) }
    }
}
