import ConnCore

/// The text of a new config file: a header, the values given, then every other setting commented
/// out with its default, so the file documents itself.
enum ConfigFileTemplate {
    static let header = """
        # conn's configuration. `conn config show` prints what conn resolves and from where;
        # CONN_* environment variables and flags override what is here.
        # Change a value with `conn config set KEY VALUE` or `conn config edit`.

        """

    /// The template with nothing set.
    static var text: String { header + "\n" + reference }

    /// Every setting, commented.
    static var reference: String {
        var lines = ["# Every setting, with its default:"]
        let examples: [String: String] = [
            "format": "text", "color": "auto", "timeout": "10s", "outboxExpiry": "24h", "outboxKeepSent": "7d", "insecure": "false",
            "utc": "false", "pluginsWithToken": "name,other", "internetCheck": "http://check.example/204=204", "caCert": "/etc/ssl/company-ca.pem",
        ]
        for setting in ConfigSetting.all where setting.key != "email" && setting.key != "token" {
            let example = "# \(setting.key): \(examples[setting.key] ?? "…")"
            lines.append(example + String(repeating: " ", count: max(1, 30 - example.count)) + "# \(setting.help)")
        }
        lines += [
            "# token: set by `conn login`, or CONN_TOKEN; a token here makes this file a secret (mode 600)",
            "# resources:                   # where the back end's resources are, under the server",
            "#   inbox: /inbox",
            "#",
            "# profiles:                    # named sets of settings: conn --profile work …",
            "#   work:",
            "#     server: https://conn.example.com",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}
