import ConnCore
import ConnPlugins
import ConnTestSupport
import Foundation
import Testing

@Suite("Plugin dispatch rules")
struct PluginDispatcherTests {
    let home: TemporaryDirectory
    let dispatcher: PluginDispatcher

    init() throws {
        home = try TemporaryDirectory()
        for name in ["conn-hello", "conn-hello-world", "conn-config", "conn-a-b-c", "conn-server"] {
            try home.write("bin/\(name)", "#!/bin/sh\n", mode: 0o755)
        }
        try home.write("bin/conn-notexecutable", "#!/bin/sh\n", mode: 0o644)
        var environment = home.environment
        environment["PATH"] = home.path + "/bin:/usr/bin"
        dispatcher = PluginDispatcher(builtInNames: ["config", "plugins"], locator: PluginLocator(environment: environment))
    }

    @Test func runsAPluginWithItsArguments() throws {
        let invocation = try #require(dispatcher.resolve(["hello", "there", "--loud"]))
        #expect(invocation.name == "hello")
        #expect(invocation.path == home.path + "/bin/conn-hello")
        #expect(invocation.arguments == ["there", "--loud"])
    }

    @Test func longestMatchWins() throws {
        #expect(try #require(dispatcher.resolve(["hello", "world", "x"])).name == "hello-world")
        #expect(try #require(dispatcher.resolve(["a", "b", "c", "d"])).arguments == ["d"])
        #expect(dispatcher.resolve(["a", "b"]) == nil)  // conn-a-b does not exist, nor conn-a
    }

    @Test("conn-server on PATH is conn's own reference server: never listed or run as a plugin named 'server'")
    func connServerIsNotAPlugin() {
        #expect(dispatcher.resolve(["server", "--port", "0"]) == nil)
        let names = PluginLocator(environment: home.environment.merging(["PATH": home.path + "/bin"]) { $1 }).all().map(\.name)
        #expect(!names.contains("server") && names.contains("hello"), "\(names)")
    }

    @Test func builtInsWinAndHelpIsNeverDispatched() {
        #expect(dispatcher.resolve(["config", "show"]) == nil)
        #expect(dispatcher.resolve(["help", "hello"]) == nil)
        #expect(dispatcher.resolve(["--help"]) == nil)
        #expect(dispatcher.resolve(["--json", "--help", "hello"]) == nil)
        #expect(dispatcher.resolve(["--generate-completion-script", "bash"]) == nil)
        #expect(dispatcher.resolve(["---completion", "--", "hello"]) == nil)
        #expect(dispatcher.resolve([]) == nil)
    }

    @Test func helpAfterThePluginNameGoesToThePlugin() throws {
        #expect(try #require(dispatcher.resolve(["hello", "--help"])).arguments == ["--help"])
    }

    @Test func leadingGlobalOptionsAreKeptForTheEnvironment() throws {
        let invocation = try #require(dispatcher.resolve(["--server", "http://s.example", "--json", "--timeout=3", "hello", "x"]))
        #expect(invocation.leadingOptions == ["--server", "http://s.example", "--json", "--timeout=3"])
        #expect(invocation.arguments == ["x"])
        #expect(dispatcher.resolve(["--bogus", "hello"]) == nil)  // left for ArgumentParser to report
    }

    @Test func nonExecutablesAndOddNamesAreNotPlugins() {
        #expect(dispatcher.resolve(["notexecutable"]) == nil)
        #expect(dispatcher.resolve(["../bin/conn-hello"]) == nil)
    }

    @Test func pluginDirectoryComesBeforePath() throws {
        try home.write("data/conn/plugins/conn-hello", "#!/bin/sh\n", mode: 0o755)
        var environment = home.environment
        environment["PATH"] = home.path + "/bin"
        let locator = PluginLocator(environment: environment)
        #expect(locator.find("hello") == home.path + "/data/conn/plugins/conn-hello")
        let all = locator.all().filter { $0.name == "hello" }
        #expect(all.map(\.shadowed) == [false, true])
    }
}
