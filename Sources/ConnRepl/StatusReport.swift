import ConnCommandKit
import ConnCore
import Foundation

/// `status` in the REPL with --format json: the connection and the warning. JSON keys are part
/// of the output contract.
struct StatusReport: Encodable, TextRenderable {
    struct Warning: Encodable {
        let shown: Bool
        let acknowledged: Bool
    }

    let state: String?
    let reason: String?
    let interface: String?
    let connectionState: ConnectionState?
    let linkEnabled: Bool
    let checkedAt: Date?
    let warning: Warning

    init(status: ReplStatus, warning: WarningRule) {
        state = status.state?.rawValue
        reason = status.reason
        interface = status.interface
        connectionState = status.link
        linkEnabled = status.linkEnabled
        checkedAt = status.checkedAt
        self.warning = Warning(shown: warning.showsWarning, acknowledged: warning.acknowledged)
    }

    func renderText(style: TextStyle) -> String { "" }
}
