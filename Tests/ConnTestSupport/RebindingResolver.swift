import ConnCore
import Foundation

/// A hostile DNS server (python3, UDP 127.0.0.1:53 inside a network namespace): its first A
/// answer for any name is `first`, every later one `then` (a DNS rebinding attack: checked as
/// one address, connected to as another). AAAA questions get no answer. Each A question it
/// answers is a line of its log. The namespace's resolv.conf points at it.
public final class RebindingResolver: @unchecked Sendable {
    let process: SpawnedProcess
    let log: String
    let resolvConf: String

    public init(in namespace: NetworkNamespace, first: String, then: String, directory: TemporaryDirectory) async throws {
        let script = try directory.write("rebinding-resolver.py", Self.script)
        log = directory.path + "/resolver.log"
        let ready = directory.path + "/resolver.ready"
        // `ip netns exec` bind-mounts /etc/netns/NAME/resolv.conf over /etc/resolv.conf.
        let etc = "/etc/netns/\(namespace.name)"
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        resolvConf = etc
        try "nameserver 127.0.0.1\noptions timeout:2 attempts:1\n".write(toFile: etc + "/resolv.conf", atomically: true, encoding: .utf8)
        let (program, arguments) = namespace.wrap(["/usr/bin/python3", script, first, then, log, ready])
        process = try SpawnedProcess(program, arguments, error: .inherit)
        let started = await poll(for: 10, every: .milliseconds(50)) { FileManager.default.fileExists(atPath: ready) ? true : nil }
        guard started == true else { throw ServerProcess.StartFailure(description: "the rebinding resolver did not start") }
    }

    deinit {
        process.terminate()
        try? FileManager.default.removeItem(atPath: resolvConf)
    }

    /// The A questions answered, in order: "NAME ADDRESS".
    public func answered() -> [String] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    static let script = #"""
        import socket, struct, sys
        first, then, log, ready = sys.argv[1:5]
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 53))
        open(ready, "w").close()
        asked = 0
        while True:
            query, peer = s.recvfrom(512)
            if len(query) < 17:
                continue
            i, labels = 12, []
            while query[i]:
                labels.append(query[i + 1:i + 1 + query[i]].decode("ascii", "replace"))
                i += 1 + query[i]
            qtype = struct.unpack("!H", query[i + 1:i + 3])[0]
            question = query[12:i + 5]
            answers = b""
            if qtype == 1:
                address = first if asked == 0 else then
                asked += 1
                answers = b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, 0, 4) + socket.inet_aton(address)
                with open(log, "a") as f:
                    f.write(".".join(labels) + " " + address + "\n")
            header = query[:2] + struct.pack("!HHHHH", 0x8180, 1, 1 if answers else 0, 0, 0)
            s.sendto(header + question + answers, peer)
        """#
}
