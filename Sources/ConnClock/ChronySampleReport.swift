import ConnCommandKit
import ConnCore
import Foundation

/// One estimate handed to chronyd (or withheld): a line of `clock-offset --chrony-socket`.
struct ChronySampleReport: Encodable, TextRenderable {
    /// The local time the sample is for.
    let at: Date
    /// Back end minus device; positive when the back end is ahead (chronyd gets it in seconds).
    let offsetMs: Double
    let uncertaintyMs: Double
    let method: String
    let socket: String
    /// Whether chronyd took it.
    let sent: Bool
    /// Why not: the bound wider than --max-uncertainty, or chronyd not listening.
    let reason: String?

    func renderText(style: TextStyle) -> String {
        let value = OffsetWording.value(offsetMs: offsetMs, uncertaintyMs: uncertaintyMs)
        return sent ? "sent to chronyd: \(value) · \(method)\n" : ""  // what was not sent is said on stderr
    }
}
