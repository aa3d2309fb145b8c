import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn outbox delete`: remove messages for good.
public struct OutboxDeleteCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete outbox messages (asks first on a terminal; --yes to skip the question).",
        discussion: HelpText.discussion(
            """
            A message that is being sent right now cannot be deleted: the request is already on \
            its way. Without a terminal there is no question, so scripts must pass --yes.
            """,
            exitCodes: "0 deleted; 64 not confirmed; 69 no such id; 75 a message is being sent",
            examples: [
                .init("conn outbox delete 3f2a", "Delete one message, after a question on the terminal."),
                .init("conn outbox delete --failed --yes", "Delete every failed message, from a script."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions
    @OptionGroup var selection: OutboxSelection

    @Flag(name: [.long, .customShort("y")], help: "Delete without asking.")
    var yes = false

    public init() {}

    public func run(in context: CommandContext) async throws {
        let store = try context.openOutbox()
        let chosen = try selection.messages(in: store)
        if chosen.isEmpty {
            try context.printer.emit(DeleteReport(deleted: [], whenNone: "no failed message to delete \(try store.holdingBesidesFailed())"))
            return
        }
        if !yes {
            guard context.terminal.standardInputIsTerminal, context.terminal.standardErrorIsTerminal else {
                throw ConnError.usage("refusing to delete \(chosen.count) message\(chosen.count == 1 ? "" : "s") without confirmation", hint: "Pass --yes (there is no terminal to ask on).")
            }
            let names = chosen.prefix(5).map(\.shortID).joined(separator: ", ") + (chosen.count > 5 ? ", …" : "")
            let question = "Delete \(chosen.count) message\(chosen.count == 1 ? "" : "s") (\(names))? [y/N] "
            guard let answer = context.ask(question), ["y", "yes"].contains(answer.lowercased()) else {
                throw ConnError.usage("not deleted")
            }
        }
        let deleted = try store.delete(chosen.map(\.id), now: Date())
        try context.printer.emit(DeleteReport(deleted: deleted.map(\.id)))
    }
}

struct DeleteReport: Encodable, TextRenderable {
    let deleted: [String]
    /// What text says when nothing was deleted.
    var whenNone = "nothing to delete"

    private enum CodingKeys: String, CodingKey { case deleted }

    func renderText(style: TextStyle) -> String {
        deleted.isEmpty ? whenNone + "\n" : deleted.map { "deleted \($0.prefix(8))\n" }.joined()
    }
}
