import AsyncHTTPClient
@testable import ConnCore
import Foundation
import NIOCore
import Testing

/// What a failed request says: the system's and conn's words, never a library's type names.
@Suite("error words")
struct ErrorWordsTests {
    let url = URL(string: "http://127.0.0.1:8080/inbox")!

    @Test("a reset connection in the system's words; a client error without its type's name; a proxy's answer names the proxy and its words")
    func noLibraryTypeNames() {
        let reset = HTTPTransport.describe(IOError(errnoCode: ECONNRESET, reason: "read(descriptor:pointer:size:)"), url: url, timeout: .seconds(5))
        #expect(reset.message == "cannot reach http://127.0.0.1:8080/inbox: the connection failed: connection reset by peer", "\(reset.message)")
        for error: any Error in [HTTPClientError.invalidProxyResponse, HTTPClientError.bodyLengthMismatch] {
            let described = HTTPTransport.describe(error, url: url, timeout: .seconds(5))
            #expect(!described.message.contains("HTTPClientError") && !described.message.contains("NIO"), "\(described.message)")
        }
        let squid = ProxyAnswer.read(status: 503, reason: nil, headers: [("X-Squid-Error", "ERR_CONNECT_FAIL 111")], toConnect: false)
        #expect(squid == ProxyAnswer(failure: .refused, said: "503 (ERR_CONNECT_FAIL 111)"))
        #expect(ProxyAnswer.read(status: 504, reason: "Gateway Timeout", headers: [("X-Squid-Error", "ERR_CONNECT_FAIL 110")], toConnect: false)?.failure == .timeout)
        #expect(ProxyAnswer.read(status: 403, reason: nil, headers: [("X-Squid-Error", "ERR_ACCESS_DENIED 0")], toConnect: true) == nil, "the proxy's own rule")
        // An escape sequence in what the proxy says never reaches the words.
        let hostile = ProxyAnswer.read(status: 503, reason: nil, headers: [("X-Squid-Error", "ERR_CONNECT_FAIL 111\u{1B}]0;x\u{07}")], toConnect: false)
        #expect(hostile == ProxyAnswer(failure: .refused, said: "503 (ERR_CONNECT_FAIL 111)"), "the sequence dropped whole: \(String(describing: hostile))")
        // An origin's own 502 through absolute form is the origin's answer; to CONNECT it is the target's failure.
        #expect(ProxyAnswer.read(status: 502, reason: nil, headers: [], toConnect: false) == nil)
        #expect(ProxyAnswer.read(status: 502, reason: nil, headers: [], toConnect: true)?.failure == .unreachable)
        #expect(ProxyAnswer.socks(reply: 5)?.failure == .refused && ProxyAnswer.socks(reply: 2) == nil && ProxyAnswer.socks(reply: 4)?.failure == .noRoute)
    }
}
