import Foundation

/// A body as JSON output carries it: as text when it is UTF-8, else in base64 (one of the two
/// is set).
public struct BodyText: Sendable, Equatable {
    public let text: String?
    public let base64: String?

    public init(_ body: Data) {
        text = String(data: body, encoding: .utf8)
        base64 = text == nil ? body.base64EncodedString() : nil
    }
}
