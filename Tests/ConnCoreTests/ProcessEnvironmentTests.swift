import Foundation
import Glibc
import Testing

@testable import ConnCore

/// conn's own reading of `environ` (ProcessInfo's costs 3 % of a command's start).
@Suite("the process's environment")
struct ProcessEnvironmentTests {
    @Test("the same dictionary as Foundation's ProcessInfo, here and in a child given odd values")
    func sameAsFoundation() async throws {
        #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
        // An empty value, '=' inside a value, UTF-8 and a newline: read back here, and passed on
        // to a child (SpawnedProcess's default environment is this reading), which env(1) prints.
        let variables = ["CONN_TEST_EMPTY": "", "CONN_TEST_EQUALS": "a=b=c", "CONN_TEST_UTF8": "Zoë 😀", "CONN_TEST_LINES": "one\ntwo"]
        for (name, value) in variables { setenv(name, value, 1) }
        defer { for name in variables.keys { unsetenv(name) } }
        let process = try SpawnedProcess("/usr/bin/env", ["-0"], output: .pipe)
        let output = try #require(process.standardOutput).readDataToEndOfFile()
        await process.exited(killingAfter: 30)
        let printed = String(decoding: output, as: UTF8.self).split(separator: "\0").map(String.init)
        for (name, value) in variables { #expect(printed.contains("\(name)=\(value)"), "\(name)") }
        #expect(ProcessEnvironment.current().filter { variables[$0.key] != nil } == variables)
    }

    @Test("entries without '=' or a name are left out; a name set twice keeps its first value, as getenv does")
    func oddEntries() {
        let texts = ["A=1", "B=", "C", "A=2", "=x", "D=a=b"]
        var entries: [UnsafeMutablePointer<CChar>?] = texts.map { strdup($0) } + [nil]
        defer { for entry in entries { free(entry) } }
        let variables = entries.withUnsafeMutableBufferPointer { ProcessEnvironment.variables($0.baseAddress) }
        #expect(variables == ["A": "1", "B": "", "D": "a=b"])
        #expect(ProcessEnvironment.variables(nil).isEmpty)
    }
}
