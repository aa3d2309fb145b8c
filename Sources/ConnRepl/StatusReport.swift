import ConnCommandKit
import ConnCore
import Foundation

/// `status` in the REPL with --format json (docs/json/repl-status.schema.json): the state in the
/// keys every command uses, the live link, and the offline warning.
struct StatusReport: Encodable, TextRenderable, SchemaVersioned {
    static let schemaVersion = 2

    struct Warning: Encodable {
        let shown: Bool
        let acknowledged: Bool
    }

    let network: NetworkState?
    let connectionState: ConnectionState?
    let linkEnabled: Bool
    let checkedAt: Date?
    let warning: Warning

    init(status: ReplStatus, warning: WarningRule) {
        network = status.network
        connectionState = status.link
        linkEnabled = status.linkEnabled
        checkedAt = status.checkedAt
        self.warning = Warning(shown: warning.showsWarning, acknowledged: warning.acknowledged)
    }

    private enum CodingKeys: String, CodingKey { case connectionState, linkEnabled, checkedAt, warning }

    func encode(to encoder: any Encoder) throws {
        try NetworkState.encode(network, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(connectionState, forKey: .connectionState)  // null when there is no link
        try container.encode(linkEnabled, forKey: .linkEnabled)
        try container.encode(checkedAt, forKey: .checkedAt)
        try container.encode(warning, forKey: .warning)
    }

    func renderText(style: TextStyle) -> String { "" }
}
