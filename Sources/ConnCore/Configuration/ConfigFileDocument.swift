import Foundation
import Yams

/// The config file as a YAML tree, read with Yams to check its structure and to find the line of
/// each key: swift-configuration reads the values, this tells the user *where* a problem is.
struct ConfigFileDocument {
    let path: String
    let root: Node.Mapping

    /// Parses `text`; a syntax error becomes a configuration error naming the file, line and column.
    init(path: String, text: String) throws {
        self.path = path
        let node: Node?
        do {
            // The basic resolver: Yams' default one types plain scalars with regular
            // expressions, which start ICU on every command, for a file of a few keys whose
            // types conn's schema already knows. Every scalar stays text; nulls are ours to see.
            // UTF-8 named: Yams's default encoding is decided by reading the whole environment again.
            node = try Yams.compose(yaml: text, .basic, .default, .utf8)
        } catch let error as YamlError {
            throw ConnError.configuration(
                "\(path):\(Self.describe(error, in: text))",
                hint: "Fix the YAML syntax at that line; `conn config show` checks the file.")
        }
        guard let node else {
            root = Node.Mapping([])  // an empty file is a valid, empty configuration
            return
        }
        try Self.checkExpandedSize(node, path: path)
        guard let mapping = node.mapping else {
            throw ConnError.configuration(
                "\(path):\(node.mark?.line ?? 1): the file must be a mapping of keys to values (such as `server: http://…`)")
        }
        root = mapping
    }

    /// The most nodes and the deepest nesting a config file may expand to. A real one has a few
    /// dozen nodes; aliases nested in aliases ("billion laughs") expand exponentially, and every
    /// reader after this one (swift-configuration's included) would walk the expansion.
    static let maximumNodes = 10_000
    static let maximumDepth = 64

    /// Counts the nodes the tree expands to (aliases as copies), stopping at the limits.
    static func checkExpandedSize(_ root: Node, path: String) throws {
        var count = 0
        var stack: [(Node, Int)] = [(root, 1)]
        while let (node, depth) = stack.popLast() {
            count += 1
            guard count <= maximumNodes, depth <= maximumDepth else {
                throw ConnError.configuration(
                    "\(path): the YAML expands to more than \(count > maximumNodes ? "\(maximumNodes) values" : "\(maximumDepth) levels of nesting") (aliases nested in aliases?)",
                    hint: "A conn config file is a few keys per profile: remove the anchors (&) and aliases (*) that repeat whole sections.")
            }
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping { stack.append((key, depth + 1)); stack.append((value, depth + 1)) }
            case .sequence(let sequence):
                for element in sequence { stack.append((element, depth + 1)) }
            default:
                break
            }
        }
    }

    /// The 1-based line of the value at a key path, if the key is present.
    func line(of components: [String]) -> Int? {
        node(at: components).flatMap { $0.mark?.line }
    }

    func node(at components: [String]) -> Node? {
        var mapping: Node.Mapping? = root
        var found: Node?
        for component in components {
            guard let current = mapping, let value = current[component] else { return nil }
            found = value
            mapping = value.mapping
        }
        return found
    }

    var profileNames: [String] {
        (root["profiles"]?.mapping?.keys.compactMap(\.string)) ?? []
    }

    /// Whether a token is stored anywhere in the file (for the permissions warning).
    var containsToken: Bool {
        if root["token"] != nil { return true }
        return root["profiles"]?.mapping?.values.contains { $0.mapping?["token"] != nil } ?? false
    }

    /// Checks the structure. Wrong shapes are errors (the file would be misread); unknown keys are
    /// warnings with a suggestion (a typo should not stop a command, but must not pass silently).
    func validate() throws -> [String] {
        var warnings: [String] = []
        try validateSettings(root, at: [], allowTopLevelKeys: true, warnings: &warnings)
        if let profiles = root["profiles"] {
            guard let mapping = profiles.mapping else {
                throw shapeError(["profiles"], node: profiles, expected: "a mapping of profile names to settings")
            }
            for (nameNode, settings) in mapping {
                let name = nameNode.string ?? "?"
                guard let settingsMapping = settings.mapping else {
                    throw shapeError(["profiles", name], node: settings, expected: "a mapping of settings (server, token, …)")
                }
                try validateSettings(settingsMapping, at: ["profiles", name], allowTopLevelKeys: false, warnings: &warnings)
            }
        }
        return warnings
    }

    private func validateSettings(
        _ mapping: Node.Mapping, at prefix: [String], allowTopLevelKeys: Bool, warnings: inout [String]
    ) throws {
        let known = ConfigKeys.settings + ["resources"] + (allowTopLevelKeys ? ConfigKeys.topLevelOnly : [])
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            let path = prefix + [key]
            if !known.contains(key) {
                let suggestion = Suggestions.closest(to: key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                warnings.append("\(self.path):\(keyNode.mark?.line ?? 0): unknown key '\(path.joined(separator: "."))'\(suggestion); it is ignored")
                continue
            }
            switch key {
            case "profiles":
                continue  // checked by the caller
            case "resources":
                guard let resources = value.mapping else {
                    throw shapeError(path, node: value, expected: "a mapping of resource names to paths or URLs")
                }
                for (resourceKey, resourceValue) in resources {
                    let name = resourceKey.string ?? ""
                    if !ConfigKeys.resources.contains(name) {
                        let suggestion = Suggestions.closest(to: name, among: ConfigKeys.resources).map { " (did you mean '\($0)'?)" } ?? ""
                        warnings.append("\(self.path):\(resourceKey.mark?.line ?? 0): unknown resource '\(name)'\(suggestion); known: \(ConfigKeys.resources.joined(separator: ", "))")
                    } else if resourceValue.scalar == nil {
                        throw shapeError(path + [name], node: resourceValue, expected: "a path such as /inbox or an absolute URL")
                    }
                }
            default:
                guard let scalar = value.scalar else {
                    throw shapeError(path, node: value, expected: "a single value")
                }
                if Self.isNull(scalar) {
                    throw ConnError.configuration(
                        "\(self.path):\(value.mark?.line ?? 0): key '\(path.joined(separator: "."))' has no value",
                        hint: "Give it a value or remove the line.")
                }
            }
        }
    }

    /// YAML's null: `key:` with nothing, or a plain `~`, `null`, `Null`, `NULL` (the core
    /// schema's, which the basic resolver leaves as text), or an explicit `!!null`.
    static func isNull(_ scalar: Node.Scalar) -> Bool {
        if scalar.tag.description == Tag.Name.null.rawValue { return true }
        return scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    private func shapeError(_ path: [String], node: Node, expected: String) -> ConnError {
        ConnError.configuration(
            "\(self.path):\(node.mark?.line ?? 0): key '\(path.joined(separator: "."))' must be \(expected)")
    }

    /// "LINE:COLUMN: malformed YAML: …". A problem found at the end of the text is placed on its
    /// last line (the parser's mark is then a line past it: `bad.yaml:2:1` for a one-line file).
    private static func describe(_ error: YamlError, in text: String) -> String {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.last?.isEmpty == true { lines.removeLast() }
            guard mark.line > lines.count, let last = lines.last else {
                return "\(mark.line):\(mark.column): malformed YAML: \(problem)"
            }
            return "\(lines.count):\(last.count + 1): malformed YAML: \(problem) (at the end of the file)"
        default:
            return " malformed YAML: \(error)"
        }
    }
}
