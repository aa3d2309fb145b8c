import Foundation

/// The programs some checks need (promtool, the blackbox exporter, zsh, fish, setpriv…). Where
/// one is missing a check inside a test is left out, saying so — except under `.ci/run`, which
/// installs them all (scripts/install-deps) and sets CONN_STRICT_TESTS=1: there a check left
/// out is a check that did not run, and the test says so with a failing expectation.
public enum TestTools {
    /// Whether this run is `.ci/run`'s, where every tool must be there.
    public static var strict: Bool { ProcessInfo.processInfo.environment["CONN_STRICT_TESTS"] == "1" }

    /// The first of `candidates` that is an executable file, or nil (printing why, naming the
    /// Debian package, so a local run shows what it left out).
    public static func find(_ candidates: [String], package: String) -> String? {
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        print("\(candidates[0]) is not installed (Debian package \(package)): the checks that need it are left out")
        return nil
    }

    /// What a test expects of a tool lookup: found, or not under `.ci/run`.
    public static func acceptable(_ found: String?) -> Bool { found != nil || !strict }

    public static let promtool: String? = find(["/usr/bin/promtool", "/usr/local/bin/promtool"], package: "prometheus")
    public static let setpriv: String? = find(["/usr/bin/setpriv"], package: "util-linux")
    public static let zsh: String? = find(["/usr/bin/zsh"], package: "zsh")
    public static let fish: String? = find(["/usr/bin/fish"], package: "fish")
}
