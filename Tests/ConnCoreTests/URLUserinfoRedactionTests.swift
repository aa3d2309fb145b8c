import ConnCore
import Testing

/// What a REPL history line and an error message keep of a `user:password@` URL.
@Suite("URLUserinfo redaction")
struct URLUserinfoRedactionTests {
    @Test("URLs with and without a scheme lose their userinfo; e-mail addresses and plain words stay", arguments: [
        ("probe http://ann:pw@h:1/x", "probe http://***@h:1/x"),
        ("probe ann:pw@h:18080 --timeout 1s", "probe ***@h:18080 --timeout 1s"),
        ("Error: Unexpected argument 'ann:pw@h:1'", "Error: Unexpected argument '***@h:1'"),
        ("send --to ann@example.com --text 'see you'", "send --to ann@example.com --text 'see you'"),
        ("probe https://h/a@b", "probe https://h/a@b"),
        ("inbox list", "inbox list"),
    ])
    func lines(_ line: String, _ kept: String) {
        #expect(URLUserinfo.redactingSecrets(inLine: line) == kept)
    }

    @Test("a single value: with a scheme, without one, and an e-mail address")
    func values() {
        #expect(URLUserinfo.redacted("http://ann:pw@h/") == "http://***@h/")
        #expect(URLUserinfo.redacted("ann:pw@h:1") == "***@h:1")
        #expect(URLUserinfo.redacted("ann@example.com") == "ann@example.com")
    }
}
