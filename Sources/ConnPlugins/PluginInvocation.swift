/// What to run for `conn WORDS… ARGS…` when WORDS name an external plugin.
public struct PluginInvocation: Sendable, Equatable {
    /// `foo-bar` for `conn foo bar`.
    public var name: String
    public var path: String
    /// Global options given before the plugin's name (`conn --server URL foo`): they configure
    /// the environment the plugin gets, and are not passed to it.
    public var leadingOptions: [String]
    /// Everything after the plugin's name, passed through untouched.
    public var arguments: [String]
}
