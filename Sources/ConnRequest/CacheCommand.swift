import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn cache`: the copies `conn get` keeps.
public struct CacheCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "List and clear the copies conn get keeps.",
        discussion: HelpText.discussion(
            """
            conn get keeps one copy of each URL it reads (in the local database, with its ETag \
            and Last-Modified), within cacheLimit (256MiB by default), the least recently used \
            evicted first.
            """,
            exitCodes: "0 its help (with no command); 64 a word that names none of its commands",
            examples: [
                .init("conn cache list", "The copies by origin, with sizes and ages."),
                .init("conn cache clear --all", "Forget every copy."),
            ]),
        subcommands: [CacheListCommand.self, CacheClearCommand.self])

    public init() {}
}

/// `conn cache list`: each copy by origin, with its size and age.
public struct CacheListCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the copies conn get keeps, by origin, with sizes and ages.",
        discussion: HelpText.discussion(
            "Reads the local database only. The total is measured against cacheLimit (256MiB by default).",
            exitCodes: "0 listed (an empty cache too); 69, 77 or 74 the database cannot be read",
            examples: [
                .init("conn cache list", "The copies by origin, with sizes and ages."),
                .init("conn cache list --json | jq '.resources[] | select(.ageSeconds > 86400) | .url'", "Copies older than a day."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    public init() {}

    public func run(in context: CommandContext) async throws {
        let cache = HTTPCache(database: try context.openDatabase(migrations: HTTPCacheMigrations.all), limit: context.configuration.cacheLimitBytes)
        let now = Date()
        let resources = try cache.list().map { resource, bytes in
            CacheListReport.Entry(url: resource.url, origin: resource.origin, bytes: bytes, fetchedAt: resource.fetchedAt,
                                  ageSeconds: resource.age(at: now), lastUsedAt: resource.lastUsedAt, etag: resource.etag,
                                  contentType: resource.headers["Content-Type"])
        }
        try context.printer.emit(CacheListReport(resources: resources, totalBytes: resources.reduce(0) { $0 + $1.bytes }, limitBytes: cache.limit))
    }
}

struct CacheListReport: Encodable, TextRenderable {
    struct Entry: Encodable {
        let url: String
        let origin: String
        let bytes: Int
        let fetchedAt: Date
        let ageSeconds: Double
        let lastUsedAt: Date
        let etag: String?
        let contentType: String?
    }

    let resources: [Entry]
    let totalBytes: Int
    let limitBytes: Int

    func renderText(style: TextStyle) -> String {
        let clean = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        guard !resources.isEmpty else { return "no copies are kept (conn get keeps one of each URL it reads)\n" }
        var lines: [String] = []
        var origin = ""
        for entry in resources {
            if entry.origin != origin {
                origin = entry.origin
                lines.append(style.bold(clean(origin)))
            }
            lines.append("  \(ByteCount.text(entry.bytes).padded(to: 9))  \(TimeFormatting.ago(seconds: entry.ageSeconds).padded(to: 16))  \(clean(entry.url))")
        }
        lines.append("\(resources.count) cop\(resources.count == 1 ? "y" : "ies"), \(ByteCount.text(totalBytes)) of \(ConnConfiguration.byteSizeText(limitBytes)) (cacheLimit)")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `conn cache clear`: drops copies.
public struct CacheClearCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Drop the copies of the URLs given, or all of them (--all).",
        discussion: HelpText.discussion(
            "The next conn get of such a URL asks the network.",
            exitCodes: "0 dropped (or nothing to drop); 64 neither URLs nor --all; 69, 77 or 74 the database cannot be written",
            examples: [
                .init("conn cache clear https://api.example.com/v1/catalog.json", "Drop one copy: the next conn get asks the network."),
                .init("conn cache clear --all", "Forget every copy."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Argument(help: ArgumentHelp("The URLs whose copies to drop.", valueName: "url"))
    var urls: [String] = []

    @Flag(help: "Drop every copy.")
    var all = false

    public init() {}

    public func validate() throws {
        if urls.isEmpty != all { throw ValidationError(all ? "--all drops every copy: give no URL with it." : "Give the URLs whose copies to drop, or --all.") }
    }

    public func run(in context: CommandContext) async throws {
        let cache = HTTPCache(database: try context.openDatabase(migrations: HTTPCacheMigrations.all), limit: context.configuration.cacheLimitBytes)
        let removed = all ? try cache.removeAll() : try cache.remove(try urls.map { try RequestDraft.url($0).absoluteString })
        try context.printer.emit(CacheClearReport(removed: removed))
    }
}

struct CacheClearReport: Encodable, TextRenderable {
    let removed: Int
    func renderText(style: TextStyle) -> String { "\(removed) cop\(removed == 1 ? "y" : "ies") dropped\n" }
}
