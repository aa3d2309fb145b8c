import ArgumentParser
import ConnCore

/// `conn outbox`: the messages `conn send` queued — see them, deliver them, resend or delete them.
public struct OutboxCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "List, show, deliver, resend and delete queued messages and requests.",
        discussion: HelpText.discussion(
            """
            Every message `conn send` writes is in the outbox until the server has it. Its id is \
            also its Idempotency-Key, the same on every attempt and resend, so the server stores it \
            once however often it is retried. States: pending (shown as "sending"), sending (an \
            attempt is under way), sent, failed (rejected, auth or expired). Ids may be shortened \
            to any unambiguous prefix.
            """,
            exitCodes: "0 its help (with no command); 64 a word that names none of its commands",
            examples: [
                .init("conn outbox list --state failed", "The messages that will not be delivered without you."),
                .init("conn outbox flush --wait 1m", "Deliver what waits, retrying for up to a minute."),
            ]),
        subcommands: [OutboxListCommand.self, OutboxShowCommand.self, OutboxFlushCommand.self,
                      OutboxResendCommand.self, OutboxRetargetCommand.self, OutboxDeleteCommand.self])

    public init() {}
}
