/// Values given on the command line. They win over everything else.
///
/// Kept as plain strings: the loader validates them with the same rules as values from the
/// environment and the config file, so every source gets the same error messages.
public struct ConfigurationOverrides: Sendable, Equatable {
    public var server: String?
    public var profile: String?
    public var configFile: String?
    public var format: String?
    public var timeout: String?
    public var color: String?
    /// `--insecure`: "true" when given.
    public var insecure: String?
    /// `--cacert`.
    public var caCert: String?
    /// `--utc`: "true" when given.
    public var utc: String?
    /// `--proxy` ("" for none) and `--noproxy`.
    public var proxy: String?
    public var noProxy: String?
    /// `--proxy-insecure` ("true" when given) and `--proxy-cacert`.
    public var proxyInsecure: String?
    public var proxyCaCert: String?
    /// Leave the config file unread (its path is still resolved): for the commands that write
    /// it, which must work when it is missing or broken.
    public var ignoresConfigFile = false
    /// `--json` when the format came from that short form, for messages.
    public var formatFlagName = "--format"

    public init(
        server: String? = nil, profile: String? = nil, configFile: String? = nil,
        format: String? = nil, timeout: String? = nil, color: String? = nil
    ) {
        self.server = server
        self.profile = profile
        self.configFile = configFile
        self.format = format
        self.timeout = timeout
        self.color = color
    }

    /// The flag that set a configuration key, for messages.
    func flagName(for key: String) -> String {
        switch key {
        case "format": formatFlagName
        case "noProxy": "--noproxy"
        case "proxyInsecure": "--proxy-insecure"
        case "proxyCaCert": "--proxy-cacert"
        case "caCert": "--cacert"
        default: "--" + key
        }
    }

    var valuesByKey: [String: String] {
        var values: [String: String] = [:]
        values["server"] = server
        values["profile"] = profile
        values["format"] = format
        values["timeout"] = timeout
        values["color"] = color
        values["insecure"] = insecure
        values["caCert"] = caCert
        values["utc"] = utc
        values["proxy"] = proxy
        values["noProxy"] = noProxy
        values["proxyInsecure"] = proxyInsecure
        values["proxyCaCert"] = proxyCaCert
        return values
    }
}
