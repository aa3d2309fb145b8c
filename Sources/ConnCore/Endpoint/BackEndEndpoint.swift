import Foundation

/// The app's back end: a base URL plus named resources (seed 003's RemoteService).
public struct BackEndEndpoint: Sendable, Equatable {
    public var baseURL: URL
    /// The configured path or absolute URL of each resource; missing ones use the default path.
    public var resourcePaths: [BackEndResource: String]

    public init(baseURL: URL, resourcePaths: [BackEndResource: String] = [:]) {
        self.baseURL = baseURL
        self.resourcePaths = resourcePaths
    }

    /// The full URL of a resource.
    ///
    /// An absolute URL is used as it is (so a profile can point at a bare endpoint, as seed 003's
    /// inbox was); a path is appended to the base URL's own path, so a base of
    /// `https://h/api` and a path of `/inbox` give `https://h/api/inbox`. The WebSocket resource
    /// gets the `ws`/`wss` scheme.
    public func url(for resource: BackEndResource) -> URL {
        let configured = resourcePaths[resource] ?? resource.defaultPath
        var url: URL
        if let absolute = Self.absoluteURL(configured) {
            url = absolute
        } else {
            var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
            let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
            let (path, query) = Self.splitQuery(configured.hasPrefix("/") ? configured : "/" + configured)
            components.path = basePath + path
            components.query = query
            url = components.url!
        }
        if resource == .ws, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            if components.scheme == "http" { components.scheme = "ws" }
            if components.scheme == "https" { components.scheme = "wss" }
            url = components.url ?? url
        }
        return url
    }

    /// Parses and checks a server URL: http or https with a host. Returns nil when unusable.
    public static func parseServerURL(_ text: String) -> URL? {
        guard let url = absoluteURL(text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else { return nil }
        return url
    }

    static func absoluteURL(_ text: String) -> URL? {
        guard IPLiteral.bracketProblem(inURL: text) == nil, let components = URLComponents(string: text), let scheme = components.scheme,
            ["http", "https", "ws", "wss"].contains(scheme.lowercased()),
            let host = components.host, !host.isEmpty, components.port.map(isValidPort) ?? true,
            components.user == nil, components.password == nil
        else { return nil }
        return components.url
    }

    /// TCP ports are 1–65535; anything else would reach the socket layer, which traps on it.
    public static func isValidPort(_ port: Int) -> Bool { (1...65535).contains(port) }

    /// Why `text` is not a usable server URL, as the end of a sentence about it; nil when it is one.
    public static func serverURLProblem(_ text: String) -> String? {
        if URLUserinfo.isPresent(in: text) { return URLUserinfo.problem }
        if let problem = IPLiteral.bracketProblem(inURL: text) { return problem }
        if let port = URLComponents(string: text)?.port, !isValidPort(port) {
            return "has a port (\(port)) out of range (1-65535)"
        }
        return parseServerURL(text) == nil ? "is not an http or https URL with a host" : nil
    }

    private static func splitQuery(_ path: String) -> (String, String?) {
        guard let mark = path.firstIndex(of: "?") else { return (path, nil) }
        return (String(path[..<mark]), String(path[path.index(after: mark)...]))
    }
}
