import Foundation
import Glibc
import Testing

@testable import ConnCore

/// conn's own reading of `environ` (ProcessInfo's costs 3 % of a command's start). No test here
/// sets a variable: setenv while other suites read the environment or start children is a race.
@Suite("the process's environment")
struct ProcessEnvironmentTests {
    @Test("the same dictionary as Foundation's ProcessInfo for this process")
    func sameAsFoundation() {
        #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
    }

    @Test("values kept as they are (empty, '=' inside, UTF-8, a newline); entries without '=' or a name left out; the first of a name twice, as getenv")
    func entries() {
        let texts = ["A=1", "B=", "C", "A=2", "=x", "D=a=b", "E=Zoë 😀", "F=one\ntwo"]
        var entries: [UnsafeMutablePointer<CChar>?] = texts.map { strdup($0) } + [nil]
        defer { for entry in entries { free(entry) } }
        let variables = entries.withUnsafeMutableBufferPointer { ProcessEnvironment.variables($0.baseAddress) }
        #expect(variables == ["A": "1", "B": "", "D": "a=b", "E": "Zoë 😀", "F": "one\ntwo"])
        #expect(ProcessEnvironment.variables(nil).isEmpty)
    }
}
