import ArgumentParser
import ConnCore
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

    /// The endpoints to check: none with --no-internet; else those given (or the configured
    /// ones: `internetCheck`, conn's own when unset) when asked for with --internet or
    /// --internet-url, or when `byDefault` and `internetCheck` is not `off`.
    public func endpoints(byDefault: Bool, configuration: ConnConfiguration) throws -> [InternetEndpoint] {
        guard !noInternet, internet || !internetURLs.isEmpty || byDefault else { return [] }
        if !internetURLs.isEmpty { return try internetURLs.map(InternetEndpoint.parse) }
        let configured = configuration.internetCheck ?? ConnConfiguration.defaultInternetCheck
        // `off`: no check unless --internet asks for one (conn's own then).
        if configured.isEmpty { return internet ? ConnectivityCheck.defaultInternetEndpoints : [] }
        let source = configuration.sources["internetCheck"]?.description ?? "the default"
        return try configured.map { entry in
            do { return try InternetEndpoint.parse(entry) } catch let error as ConnError {
                throw ConnError.configuration("internetCheck (from \(source)): \(error.message)", hint: error.hint)
            }
        }
    }
}
