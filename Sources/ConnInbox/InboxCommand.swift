import ArgumentParser
import ConnCore

/// `conn inbox`: the inbox (seed 003) in a local cache, readable offline, shown as conversations.
public struct InboxCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "Fetch the inbox into a local cache and read it offline, as conversations.",
        discussion: HelpText.discussion(
            """
            `fetch` needs the server; `list` and `thread` read only the cache and work with no \
            network at all. The cache keeps a copy per server's inbox, and reads the configured \
            server's (`sources` lists them). Conversations follow responseToUid: a reply whose parent is not cached \
            hangs under a placeholder, cycles are broken at their oldest message, and every \
            record of a uid sent more than once is kept, flagged duplicateUid.
            """,
            exitCodes: "0 its help (with no command); 64 a word that names none of its commands",
            examples: [
                .init("conn inbox fetch && conn inbox list", "Fetch, then the conversations, newest first."),
                .init("conn inbox thread 42", "The conversation message 42 is in, as a tree."),
            ]),
        subcommands: [InboxFetchCommand.self, InboxListCommand.self, InboxThreadCommand.self, InboxSourcesCommand.self])

    public init() {}
}
