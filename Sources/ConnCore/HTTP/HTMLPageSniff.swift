import Foundation
import NIOCore

/// Tells an HTML page (a captive portal's or a proxy's sign-in page) from an API's answer. The
/// probe and the outbox share this rule, so an answer one calls a portal the other does too.
public enum HTMLPageSniff {
    /// How much of the body's head is read: a page's markup starts there.
    public static let headBytes = 512

    /// Whether an answer with this Content-Type and body is an HTML page: the type says HTML
    /// (text/html, application/xhtml+xml), or the body's first `headBytes` hold `<html` or
    /// `<!doctype`, in any case — a portal does not always say what it sends.
    public static func isPage(contentType: String?, body: some Collection<UInt8>) -> Bool {
        if contentType?.lowercased().contains("html") == true { return true }
        let head = Array(body.prefix(headBytes))
        // Markup starts with "<": a head without one is no page (most answers).
        guard head.contains(UInt8(ascii: "<")) else { return false }
        return contains(head, "<html") || contains(head, "<!doctype")
    }

    /// Whether `bytes` holds `lowercased` in any case (ASCII).
    private static func contains(_ bytes: [UInt8], _ lowercased: String) -> Bool {
        let needle = Array(lowercased.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { start in
            needle.indices.allSatisfy { offset in
                let byte = bytes[start + offset]
                return (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == needle[offset]
            }
        }
    }
}

extension HTTPExchangeResponse {
    /// Whether the answer is an HTML page rather than an API's answer (`HTMLPageSniff`).
    public var looksLikeHTMLPage: Bool {
        HTMLPageSniff.isPage(contentType: header("Content-Type"), body: body)
    }
}

extension ChannelHTTPExchange.Response {
    /// Whether the answer is an HTML page rather than an API's answer (`HTMLPageSniff`).
    public var looksLikeHTMLPage: Bool {
        HTMLPageSniff.isPage(contentType: headers.first(name: "Content-Type"), body: body.readableBytesView)
    }
}
