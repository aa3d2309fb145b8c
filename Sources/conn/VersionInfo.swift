import ConnCommandKit
import ConnCore

/// What `conn --version` prints: `conn 0.2.0 (abc1234, 2026-11-23)`, or with --json
/// `{"name":"conn","version":"0.2.0","commit":"abc1234","date":"2026-11-23"}`. The commit and
/// its date come from BuildInfo (scripts/build-info, at build time); "unknown" outside a
/// checkout.
struct VersionInfo: Encodable, TextRenderable {
    let name = "conn"
    let version = ConnVersion.current
    let commit = BuildInfo.commit
    let date = BuildInfo.date

    static let current = VersionInfo()

    var text: String { "\(name) \(version) (\(commit), \(date))" }

    func renderText(style: TextStyle) -> String { text + "\n" }

    /// Whether the command line asks for the version (anywhere before a `--`), as
    /// ArgumentParser's own `--version` would take it.
    static func isRequested(by arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--version")
    }
}
