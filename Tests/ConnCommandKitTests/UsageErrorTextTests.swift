import ConnCommandKit
import Testing

@Suite("usage errors in conn's form")
struct UsageErrorTextTests {
    @Test("ArgumentParser's Error/Help/Usage/See lines become conn: lines; the first word is lower-cased unless it is an acronym or an option")
    func reformats() {
        let full = """
            Error: Missing value for '--since <when>'
            Help:  --since <when>  Only conversations active since then.
            Usage: conn inbox list <options>
              See 'conn inbox list --help' for more information.
            """
        #expect(UsageErrorText.format(full, unknownCommand: nil) == """
            conn: error: missing value for '--since <when>'
            conn: --since <when> Only conversations active since then.
            conn: usage: conn inbox list <options> (see 'conn inbox list --help')

            """)
        #expect(UsageErrorText.format("Error: URL is bad\nUsage: conn probe", unknownCommand: nil)
                == "conn: error: URL is bad\nconn: usage: conn probe\n")
        #expect(UsageErrorText.format("Error: --to 'x' is not an address", unknownCommand: nil) == "conn: error: --to 'x' is not an address\n")
    }

    @Test("an unknown command's own line takes the place of 'Unexpected argument'; a message without the Error: prefix is kept whole")
    func unknownCommandAndPlainMessages() {
        let full = "Error: Unexpected argument 'frob'\nUsage: conn <subcommand>\n  See 'conn --help' for more information."
        #expect(UsageErrorText.format(full, unknownCommand: "'frob' is not a conn command")
                == "conn: error: 'frob' is not a conn command\nconn: usage: conn <subcommand> (see 'conn --help')\n")
        #expect(UsageErrorText.format("Something odd happened", unknownCommand: nil) == "conn: error: something odd happened\n")
    }
}
