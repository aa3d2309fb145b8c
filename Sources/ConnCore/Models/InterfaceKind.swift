/// The kind of a network interface, as a person would name it.
public enum InterfaceKind: String, Sendable, Codable, CaseIterable {
    case wifi, ethernet, wwan, vpn, virtual, loopback, unknown

    /// Cellular links are metered: tools should avoid large transfers over them.
    public var isExpensive: Bool { self == .wwan }
}
