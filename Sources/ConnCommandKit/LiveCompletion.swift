import ArgumentParser
import ConnCore
import Foundation

/// Tab completions that read this machine (LocalLookups), for bash, zsh and fish: the shell asks
/// `conn` at Tab time, and these answer from the local database and config file.
public enum LiveCompletion {
    static var lookups: LocalLookups { LocalLookups(environment: ProcessEnvironment.current()) }

    /// The uids of the copy `inbox thread` reads, under the --server/--profile typed so far.
    public static let inboxUIDs = CompletionKind.custom { words, _, prefix in
        LocalLookups(environment: ProcessEnvironment.current(), overrides: LocalLookups.overrides(in: words)).inboxUIDs(prefix)
    }
    public static let outboxIDs = CompletionKind.custom { _, _, prefix in lookups.outboxIDs(prefix) }
    public static let profiles = CompletionKind.custom { _, _, prefix in lookups.profiles(prefix) }
    /// This machine's interfaces by name, then their addresses (`--interface`).
    public static let interfaces = CompletionKind.custom { _, _, prefix in
        let local = LocalInterface.current()
        return (local.map(\.name) + local.flatMap(\.addresses)).filter { $0.hasPrefix(prefix) }
    }
}
