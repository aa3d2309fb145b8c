import ArgumentParser
import ConnCommandKit

/// The messages `resend` and `delete` act on: ids (prefixes) or every failed one.
struct OutboxSelection: ParsableArguments {
    @Argument(help: ArgumentHelp("Message ids (unique prefixes are enough).", valueName: "id"), completion: LiveCompletion.outboxIDs)
    var ids: [String] = []

    @Flag(help: "Every failed message.")
    var failed = false

    func validate() throws {
        if ids.isEmpty && !failed { throw ValidationError("name the messages by id, or pass --failed.") }
        if !ids.isEmpty && failed { throw ValidationError("give ids or --failed, not both.") }
    }

    func messages(in store: OutboxStore) throws -> [OutboxMessage] {
        failed ? try store.list(states: [.failed]) : try store.resolve(ids)
    }
}
