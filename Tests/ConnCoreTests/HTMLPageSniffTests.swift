import ConnCore
import Foundation
import Testing

/// The one rule the probe and the outbox use to tell a sign-in page from an API's answer.
@Suite("an HTML page or an API's answer")
struct HTMLPageSniffTests {
    static func isPage(_ contentType: String?, _ body: String) -> Bool {
        HTMLPageSniff.isPage(contentType: contentType, body: Array(body.utf8))
    }

    @Test("a Content-Type that says HTML is a page whatever the body; markup at the head is a page whatever the type, in any case")
    func pages() {
        #expect(Self.isPage("text/html; charset=utf-8", "{}"))
        #expect(Self.isPage("application/xhtml+xml", ""))
        #expect(Self.isPage("TEXT/HTML", ""))
        #expect(Self.isPage("text/plain", "<!DOCTYPE html><title>Sign in</title>"))
        #expect(Self.isPage(nil, "\n  <!doctype HTML>"))
        #expect(Self.isPage(nil, "<HTML><body>Login</body></HTML>"))
        #expect(Self.isPage("application/json", "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\">"))
    }

    @Test("answers without HTML's type or markup in the first 512 bytes are not pages: JSON with a '<' in a string, plain text, markup further in")
    func notPages() {
        #expect(!Self.isPage("application/json", #"{"uid":"m1","text":"a < b"}"#))
        #expect(!Self.isPage(nil, ""))
        #expect(!Self.isPage("text/plain", "ok <3"))
        #expect(!Self.isPage("text/plain", "<htm"))
        #expect(!Self.isPage(nil, String(repeating: " ", count: HTMLPageSniff.headBytes) + "<html>"))
        #expect(!Self.isPage("application/json", #"{"note":"<b>bold</b>"}"#))
    }

    @Test("an exchange's answer asks the same rule (the probe's is checked by ProbeCommandTests against a hostile server)")
    func exchangeAnswer() {
        let page = "<!DOCTYPE html><p>Sign in</p>"
        #expect(HTTPExchangeResponse(status: 200, headers: [("content-type", "text/plain")], body: Data(page.utf8), elapsed: .zero).looksLikeHTMLPage)
        #expect(!HTTPExchangeResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Data("ok".utf8), elapsed: .zero).looksLikeHTMLPage)
    }
}
