import ArgumentParser
import ConnCommandKit
import ConnCore
import Testing

@Suite("Global options")
struct GlobalOptionsTests {
    @Test func parsesEveryOption() throws {
        let options = try GlobalOptions.parse([
            "--server", "http://127.0.0.1:8080", "--profile", "work", "--config", "/tmp/c.yaml",
            "--format", "json", "--timeout", "500ms", "--color", "never", "-v",
        ])
        let overrides = options.overrides
        #expect(overrides.server == "http://127.0.0.1:8080")
        #expect(overrides.profile == "work")
        #expect(overrides.configFile == "/tmp/c.yaml")
        #expect(overrides.format == "json")
        #expect(overrides.timeout == "500ms")
        #expect(overrides.color == "never")
        #expect(options.verbosity == .verbose)
    }

    @Test func jsonIsShortForFormatJSON() throws {
        #expect(try GlobalOptions.parse(["--json"]).overrides.format == "json")
        #expect(try GlobalOptions.parse(["--json", "--format", "json"]).overrides.format == "json")
        #expect(try GlobalOptions.parse(["-q"]).verbosity == .quiet)
    }

    @Test(arguments: [
        ["--json", "--format", "text"], ["-v", "-q"], ["--timeout", "soon"], ["--timeout", "0"],
        ["--server", "localhost:80"], ["--format", "yaml"], ["--color", "sometimes"], ["--server"],
    ])
    func rejectsBadInput(_ arguments: [String]) {
        #expect(throws: (any Error).self) { try GlobalOptions.parse(arguments) }
        if let error = (try? GlobalOptions.parse(arguments)).map({ _ in nil }) ?? Optional(catching(arguments)) {
            #expect(GlobalOptions.exitCode(for: error).rawValue == ConnCore.ExitStatus.usage.rawValue)
            #expect(!GlobalOptions.message(for: error).isEmpty)
        }
    }

    private func catching(_ arguments: [String]) -> any Error {
        do { _ = try GlobalOptions.parse(arguments); return CancellationError() } catch { return error }
    }

    /// Plugin dispatch skips global options by name before ArgumentParser runs; this keeps its
    /// lists in step with the options ArgumentParser really accepts.
    @Test func optionTablesMatchTheParser() throws {
        let sampleValues = ["--server": "http://a.example", "--profile": "p", "--config": "/c", "--format": "json",
                            "--timeout": "1", "--color": "never", "--proxy": "http://proxy.example:3128", "--noproxy": ".internal",
                            "--proxy-cacert": "/etc/ssl/certs/ca-certificates.crt", "--cacert": "/etc/ssl/certs/ca-certificates.crt"]
        for name in GlobalOptions.optionsTakingValues {
            let value = try #require(sampleValues[name], "no sample value for \(name)")
            #expect(throws: Never.self) { try GlobalOptions.parse([name, value]) }
            #expect(throws: (any Error).self) { try GlobalOptions.parse([name]) }
        }
        for flag in GlobalOptions.flags {
            #expect(throws: Never.self) { try GlobalOptions.parse([flag]) }
        }
        #expect(Set(sampleValues.keys) == GlobalOptions.optionsTakingValues)
    }
}

@Suite("Colour policy")
struct ColorPolicyTests {
    @Test func autoFollowsTheTerminalAndTheEnvironment() {
        #expect(ColorMode.auto.enabled(isTerminal: true, environment: ["TERM": "xterm"]))
        #expect(!ColorMode.auto.enabled(isTerminal: false, environment: ["TERM": "xterm"]))
        #expect(!ColorMode.auto.enabled(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(ColorMode.auto.enabled(isTerminal: true, environment: ["NO_COLOR": ""]))  // empty = unset (no-color.org)
        #expect(!ColorMode.auto.enabled(isTerminal: true, environment: ["TERM": "dumb"]))
        #expect(!ColorMode.never.enabled(isTerminal: true, environment: [:]))
        #expect(ColorMode.always.enabled(isTerminal: false, environment: [:]))
    }

    @Test func styleIsPlainWhenDisabled() {
        #expect(TextStyle(enabled: false).red("x") == "x")
        #expect(TextStyle(enabled: true).red("x") == "\u{1B}[31mx\u{1B}[0m")
    }
}
