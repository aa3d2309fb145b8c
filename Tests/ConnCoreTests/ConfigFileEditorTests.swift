import ConnCore
import Testing

/// `conn config set`'s line editing: the one value changes, every other byte stays, and a layout
/// it cannot edit line by line is refused rather than written wrong.
@Suite("Config file editing: one line, comments kept")
struct ConfigFileEditorTests {
    static let file = """
        # conn configuration — keep this comment
        server: http://a.example:8080   # the main one
        timeout: 7

        # work things
        profiles:
          work:
            server: "http://work.example"  # quoted
            resources:
              inbox: /w/inbox
          home:
            email: me@home.example
        """

    func edited(_ keyPath: [String], _ value: String) throws -> String {
        try edited(Self.file, keyPath, value)
    }

    func edited(_ text: String, _ keyPath: [String], _ value: String) throws -> String {
        var editor = ConfigFileEditor(text: text, path: "config.yaml")
        try editor.set(keyPath, to: value)
        return editor.text
    }

    @Test("a value is replaced on its line; the comment after it and every other line stay")
    func replacesInPlace() throws {
        let text = try edited(["server"], "http://b.example:9000")
        #expect(text == Self.file.replacingOccurrences(of: "server: http://a.example:8080   # the main one", with: "server: http://b.example:9000   # the main one"))
        let quoted = try edited(["profiles", "work", "server"], "http://w2.example")
        #expect(quoted.contains("    server: http://w2.example  # quoted\n"), "\(quoted)")
        let nested = try edited(["profiles", "work", "resources", "inbox"], "https://x.example/inbox.json")
        #expect(nested.contains("      inbox: https://x.example/inbox.json\n"))
        #expect(nested.components(separatedBy: "\n").count == Self.file.components(separatedBy: "\n").count)
    }

    @Test("a missing key goes into its section: a setting before `profiles:`, a profile's after its last key, a new profile at the end")
    func insertsWhereItBelongs() throws {
        let top = try edited(["email"], "ann@example.com")
        #expect(top.contains("timeout: 7\nemail: ann@example.com\n\n# work things\nprofiles:"), "\(top)")
        let inProfile = try edited(["profiles", "home", "timeout"], "3s")
        #expect(inProfile.hasSuffix("  home:\n    email: me@home.example\n    timeout: 3s"), "\(inProfile)")
        let afterNested = try edited(["profiles", "work", "email"], "w@example.com")
        #expect(afterNested.contains("      inbox: /w/inbox\n    email: w@example.com\n  home:"), "\(afterNested)")
        let newProfile = try edited(["profiles", "lab", "resources", "inbox"], "/lab")
        #expect(newProfile.hasSuffix("    email: me@home.example\n  lab:\n    resources:\n      inbox: /lab"), "\(newProfile)")
        let fromNothing = try edited("", ["profiles", "work", "server"], "http://w.example")
        #expect(fromNothing == "profiles:\n  work:\n    server: http://w.example\n")
        let underEmptyKey = try edited("profiles:\n  work:\n", ["profiles", "work", "email"], "a@b.cc")
        #expect(underEmptyKey == "profiles:\n  work:\n    email: a@b.cc\n")
        let emptyValue = try edited("email:   # later\n", ["email"], "a@b.cc")
        #expect(emptyValue == "email: a@b.cc   # later\n")
    }

    @Test("values that YAML would read differently are double-quoted; plain ones stay plain")
    func quoting() throws {
        #expect(try edited("", ["email"], "a b: c # d") == "email: \"a b: c # d\"\n")
        #expect(try edited("", ["email"], "null") == "email: \"null\"\n")
        #expect(try edited("", ["email"], "") == "email: \"\"\n")
        #expect(try edited("", ["token"], "tab\there\"\\") == "token: \"tab\\there\\\"\\\\\"\n")
        #expect(try edited("", ["server"], "http://[::1]:8080") == "server: \"http://[::1]:8080\"\n")
        #expect(try edited("", ["timeout"], "2.5") == "timeout: 2.5\n")
        #expect(try edited("", ["server"], "https://conn.example/api") == "server: https://conn.example/api\n")
    }

    @Test("layouts a line edit cannot handle are refused, and the text is left alone")
    func refusals() throws {
        let folded = "server: >\n  http://a.example\n"
        #expect(throws: ConnError.self) { try edited(folded, ["server"], "http://b.example") }
        #expect(throws: ConnError.self) { try edited(Self.file, ["profiles", "work"], "x") }  // a section
        #expect(throws: ConnError.self) { try edited("server: http://a:1\n", ["server", "x"], "y") }  // under a value
        #expect(throws: ConnError.self) { try edited("servers: [a, b,\n  c]\nserver: x\n", ["servers", "0"], "y") }
        #expect(throws: ConnError.self) { try edited("a: [unclosed\n", ["server"], "y") }
        // Aliases nested in aliases: refused at the loader's limit, not walked for ever.
        var bomb = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...8 { bomb.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]") }
        #expect(throws: ConnError.self) { try edited(bomb.joined(separator: "\n") + "\n", ["timeout"], "3s") }
        var editor = ConfigFileEditor(text: folded, path: "config.yaml")
        _ = try? editor.set(["server"], to: "http://b.example")
        #expect(editor.text == folded)
    }

    @Test("CRLF files keep their line endings")
    func crlf() throws {
        let text = try edited("server: http://a:1\r\ntimeout: 7\r\n", ["email"], "a@b.cc")
        #expect(text == "server: http://a:1\r\ntimeout: 7\r\nemail: a@b.cc\r\n")
        #expect(try edited("server: http://a:1\r\n", ["server"], "http://b:2") == "server: http://b:2\r\n")
    }
}
