import ArgumentParser

/// `conn outbox`: the messages `conn send` queued — see them, deliver them, resend or delete them.
public struct OutboxCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "List, show, deliver, resend and delete queued messages.",
        discussion: """
            Every message `conn send` writes is in the outbox until the server has it. Its id is \
            also its Idempotency-Key, the same on every attempt and resend, so the server stores it \
            once however often it is retried. States: pending (shown as "sending"), sending (an \
            attempt is under way), sent, failed (rejected, auth or expired). Ids may be shortened \
            to any unambiguous prefix.
            """,
        subcommands: [OutboxListCommand.self, OutboxShowCommand.self, OutboxFlushCommand.self,
                      OutboxResendCommand.self, OutboxDeleteCommand.self])

    public init() {}
}
