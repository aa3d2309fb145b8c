import ConnCore
import Foundation

extension HTTPExchangeResponse {
    /// Whether the answer is an HTML page (a captive portal's or a proxy's login page, not an
    /// API's answer): its Content-Type says HTML, or the head of its body is markup.
    var looksLikeHTMLPage: Bool {
        if header("Content-Type")?.lowercased().contains("html") == true { return true }
        // Markup starts with "<": a body without one in its head is no page (most answers).
        let head = body.prefix(512)
        guard head.contains(UInt8(ascii: "<")) else { return false }
        return head.range(of: Data("<html".utf8)) != nil || head.range(of: Data("<!DOCTYPE".utf8)) != nil
            || head.range(of: Data("<!doctype".utf8)) != nil
    }
}
