@testable import ConnRepl
import Testing

@Suite("REPL completion")
struct CompleterTests {
    static let tree = CommandTree(name: "conn", subcommands: [
        CommandTree(name: "inbox", subcommands: [
            CommandTree(name: "list", options: [.init(names: ["--limit"], takesValue: true, valueName: "n", values: [])]),
            CommandTree(name: "thread", options: [.init(names: ["--ascii"], takesValue: false, valueName: nil, values: [])], positionals: ["uid"]),
        ]),
        CommandTree(name: "outbox", subcommands: [CommandTree(name: "show", positionals: ["id"])]),
        CommandTree(name: "send", options: [
            .init(names: ["--reply-to"], takesValue: true, valueName: "uid", values: []),
            .init(names: ["--format"], takesValue: true, valueName: "format", values: ["text", "json"]),
            .init(names: ["-v", "--verbose"], takesValue: false, valueName: nil, values: []),
        ]),
    ])

    let completer = Completer(tree: tree, builtIns: ["ack", "status"],
                              uids: { prefix in ["m1", "m10", "m2"].filter { $0.hasPrefix(prefix) } },
                              outboxIDs: { prefix in ["4f9d3310", "4fa00001"].filter { $0.hasPrefix(prefix) } })

    @Test("commands and the REPL's own words at the start", arguments: [
        ("", ["ack", "inbox", "outbox", "send", "status"]),
        ("s", ["send", "status"]),
        ("in", ["inbox"]),
        ("inbox ", ["list", "thread"]),
        ("inbox t", ["thread"]),
        // After global options, with and without a value, as a command line starts.
        ("--json inbox ", ["list", "thread"]),
        ("--server http://127.0.0.1:8080 inb", ["inbox"]),
        ("--server=http://127.0.0.1:8080 --json inbox t", ["thread"]),
        ("--profile staging -v send --r", ["--reply-to"]),
    ])
    func commands(line: String, expected: [String]) {
        #expect(completer.candidates(for: line) == expected)
    }

    @Test("options of the command being typed; listed values; uids and outbox ids where taken", arguments: [
        ("send --r", ["--reply-to"]),
        ("send -", ["--format", "--reply-to", "--verbose", "-v"]),
        ("send --format ", ["json", "text"]),
        ("send --format=j", ["--format=json"]),
        ("send --reply-to m1", ["m1", "m10"]),
        ("inbox thread ", ["m1", "m10", "m2"]),
        ("inbox thread --ascii m", ["m1", "m10", "m2"]),
        ("outbox show 4f9", ["4f9d3310"]),
        ("inbox list --limit ", []),
        ("nothing ", []),
    ])
    func arguments(line: String, expected: [String]) {
        #expect(completer.candidates(for: line) == expected)
    }

    @Test("the tree is read from ArgumentParser's dump")
    func readsDump() throws {
        let json = """
            {"serializationVersion":0,"command":{"commandName":"conn","subcommands":[
              {"commandName":"outbox","subcommands":[{"commandName":"list","arguments":[
                {"kind":"option","names":[{"kind":"long","name":"state"}],"valueName":"state","shouldDisplay":true,"isOptional":true,"isRepeating":true,"parsingStrategy":"default"},
                {"kind":"flag","names":[{"kind":"short","name":"q"},{"kind":"long","name":"quiet"}],"shouldDisplay":true,"isOptional":true,"isRepeating":false,"parsingStrategy":"default"},
                {"kind":"flag","names":[{"kind":"long","name":"secret"}],"shouldDisplay":false,"isOptional":true,"isRepeating":false,"parsingStrategy":"default"},
                {"kind":"option","names":[{"kind":"long","name":"until"}],"valueName":"state","completionKind":{"list":{"values":["online","offline"]}},"shouldDisplay":true,"isOptional":true,"isRepeating":false,"parsingStrategy":"default"},
                {"kind":"option","names":[{"kind":"long","name":"file"}],"valueName":"path","completionKind":{"file":{"extensions":[]}},"shouldDisplay":true,"isOptional":true,"isRepeating":false,"parsingStrategy":"default"}]}]}]}}
            """
        let tree = try CommandTree(dumpHelpJSON: json)
        let list = try #require(tree.subcommand("outbox")?.subcommand("list"))
        #expect(list.options.map(\.names) == [["--state"], ["-q", "--quiet"], ["--until"], ["--file"]])
        #expect(list.option(named: "--until")?.values == ["online", "offline"])
        #expect(list.option(named: "--file")?.values == [])
        #expect(list.option(named: "--state")?.takesValue == true)
        #expect(list.option(named: "--quiet")?.takesValue == false)
    }
}
