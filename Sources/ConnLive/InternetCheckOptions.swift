import ArgumentParser
import ConnProbe

/// Whether a monitor also checks the internet, and against which endpoints: the options
/// `conn watch`, `conn agent` and `conn repl` share.
public struct InternetCheckOptions: ParsableArguments {
    @Flag(help: "Check the internet too (default when no target and no server is given).")
    var internet = false

    @Flag(name: .customLong("no-internet"), help: "Never run the internet check.")
    var noInternet = false

    @Option(name: .customLong("internet-url"), help: ArgumentHelp("An internet check endpoint: URL[=STATUS[:TEXT]] (repeatable).", valueName: "url"))
    var internetURLs: [String] = []

    public init() {}

    /// Whether the internet check was asked for by name (--internet, --internet-url): then it
    /// decides the state too, not only the targets.
    public var requested: Bool { !noInternet && (internet || !internetURLs.isEmpty) }

    /// The endpoints to check: none with --no-internet; else those given (or the defaults) when
    /// asked for with --internet or --internet-url, or when `byDefault`.
    public func endpoints(byDefault: Bool) throws -> [InternetEndpoint] {
        guard !noInternet, internet || !internetURLs.isEmpty || byDefault else { return [] }
        return internetURLs.isEmpty ? ConnectivityCheck.defaultInternetEndpoints : try internetURLs.map(InternetEndpoint.parse)
    }
}
