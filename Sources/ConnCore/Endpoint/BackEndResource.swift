/// The named resources of the back end (seed 003's RemoteResource idea): each has a default
/// path under the base URL and may be configured to another path or an absolute URL.
public enum BackEndResource: String, Sendable, Codable, CaseIterable {
    case health, inbox, messages, time, ws, session

    public var defaultPath: String { "/" + rawValue }
}
