import ConnCore
import Foundation

/// An executable `conn-NAME` found on disk.
public struct ExternalPlugin: Sendable, Equatable, Codable {
    /// The command name: `conn-foo-bar` runs as `conn foo bar`.
    public var name: String
    public var path: String
    /// True when an earlier directory already has a plugin of that name (that one runs).
    public var shadowed: Bool
}

/// Finds `conn-NAME` executables: first in conn's own plugin directory
/// (`$XDG_DATA_HOME/conn/plugins`), then along PATH, the first match winning as a shell's would.
/// Only absolute PATH entries are searched: a relative one (`bin`, `.`, an empty entry) depends on
/// the current directory, so running conn inside a downloaded tree could run a plugin from it.
public struct PluginLocator: Sendable {
    public let directories: [String]

    public init(environment: [String: String]) {
        let paths = ConnPaths(environment: environment)
        let pathEntries = (environment["PATH"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        directories = [paths.pluginDirectory] + pathEntries
    }

    /// Executables that ship with conn and are named `conn-…` without being plugins: the
    /// reference server is `conn-server`, not `conn server`.
    public static let ownExecutables: Set<String> = ["server"]

    /// The path of the executable that `conn-<name>` would run, if any.
    public func find(_ name: String) -> String? {
        guard Self.isValidName(name), !Self.ownExecutables.contains(name) else { return nil }
        for directory in directories {
            let candidate = directory + "/conn-" + name
            if Self.isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Every plugin in every directory, in search order, with later duplicates marked shadowed.
    public func all() -> [ExternalPlugin] {
        var seen: Set<String> = []
        var plugins: [ExternalPlugin] = []
        for directory in directories {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for entry in entries.sorted() where entry.hasPrefix("conn-") {
                let name = String(entry.dropFirst("conn-".count))
                let path = directory + "/" + entry
                guard Self.isValidName(name), !Self.ownExecutables.contains(name), Self.isExecutableFile(path) else { continue }
                plugins.append(ExternalPlugin(name: name, path: path, shadowed: seen.contains(name)))
                seen.insert(name)
            }
        }
        return plugins
    }

    /// Plugin names are words joined by dashes; nothing that could climb out of a directory.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("-") && !name.hasPrefix(".")
            && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
    }

    static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && access(path, X_OK) == 0
    }
}
