import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn config profiles`: the profiles the config file defines, the active one marked.
public struct ConfigProfilesCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List the config file's profiles and mark the one in use.",
        discussion: HelpText.discussion(
            """
            `default` is the file's top level, which every profile inherits; the others are the \
            sections under `profiles:`. Each shows the server and e-mail it resolves to (with \
            CONN_* variables applied, as a command would see them).
            """,
            exitCodes: "0 listed; 78 the config file is invalid",
            examples: [
                .init("conn config profiles", "Every profile, * at the active one."),
                .init("conn config profiles --json | jq -r '.profiles[].name'", "The names alone."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    public init() {}

    public func run(in context: CommandContext) async throws {
        let configuration = context.configuration
        let names = ["default"] + configuration.profileNames.filter { $0 != "default" }
        var profiles: [ConfigProfilesReport.Profile] = []
        for name in names {
            // The active one is already resolved; the others as `--profile NAME` would resolve them.
            let resolved: ConnConfiguration
            if name == configuration.profile {
                resolved = configuration
            } else {
                var overrides = global.overrides
                overrides.profile = name
                resolved = try ConfigurationLoader(environment: context.environment).load(overrides)
            }
            profiles.append(.init(name: name, active: name == configuration.profile,
                                  server: resolved.backEnd?.baseURL.absoluteString, email: resolved.email))
        }
        try context.printer.emit(ConfigProfilesReport(active: configuration.profile, configFile: configuration.configFile, profiles: profiles))
    }
}

/// What `conn config profiles` prints.
struct ConfigProfilesReport: Encodable, TextRenderable, SchemaVersioned {
    static let schemaVersion = 1
    struct Profile: Encodable {
        let name: String
        let active: Bool
        let server: String?
        let email: String?
    }
    let active: String
    let configFile: String
    let profiles: [Profile]

    func renderText(style: TextStyle) -> String {
        let clean = profiles.map { profile in
            (profile, TerminalSanitizer.sanitize(profile.name, keepNewlines: false))
        }
        let width = clean.map(\.1.count).max() ?? 0
        return clean.map { profile, name in
            let marker = profile.active ? "*" : " "
            let padded = name.padded(to: width)
            let details = [profile.server ?? "(no server)", profile.email].compactMap { $0 }.joined(separator: "  ")
            let line = "\(marker) \(profile.active ? style.bold(padded) : padded)  \(TerminalSanitizer.sanitize(details, keepNewlines: false))"
            return line
        }.joined(separator: "\n") + "\n"
    }
}
