/// conn's version, shown by `conn --version` and sent as the User-Agent.
public enum ConnVersion {
    public static let current = "0.2.0"
}
