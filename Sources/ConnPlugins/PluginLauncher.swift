import ConnCommandKit
import ConnCore
import Foundation

/// Replaces the conn process with the plugin (execve), as kubectl does: the plugin gets the
/// terminal, the signals and the exit code directly, with nothing in between. Inside `conn repl`
/// it runs as a child instead, so the session goes on after it (and piped lines after it run).
public enum PluginLauncher {
    /// Resolves the configuration (with the options given before the plugin's name), then execs.
    /// Returns only on failure, with the exit status to use (the error has been printed) — or,
    /// inside `conn repl`, with the plugin's own exit status.
    public static func run(
        _ invocation: PluginInvocation, environment: [String: String], sink: any OutputSink, terminal: TerminalFacts
    ) -> Int32 {
        let global: GlobalOptions
        do {
            global = try GlobalOptions.parse(invocation.leadingOptions)
        } catch {
            sink.write("conn: error: \(GlobalOptions.message(for: error))\n", to: .standardError)
            return ExitStatus.usage.rawValue
        }
        let configuration: ConnConfiguration
        do {
            configuration = try ConfigurationLoader(environment: environment).load(global.overrides)
        } catch {
            let printer = Printer(sink: sink, format: global.json ? .json : .text, verbosity: global.verbosity,
                                  color: global.color ?? .auto, terminal: terminal, environment: environment)
            let connError = (error as? ConnError) ?? .internalError("\(error)")
            printer.error(connError)
            return connError.exitStatus.rawValue
        }
        let verbosity = global.verbose ? "verbose" : global.quiet ? "quiet" : "normal"
        // For a plugin that cannot be started, and the warning about the token.
        let printer = Printer(sink: sink, format: configuration.format, verbosity: global.verbosity,
                              color: configuration.color, terminal: terminal, environment: environment)
        var withholdToken = false
        if configuration.pluginsWithToken.contains(invocation.name), configuration.token != nil,
            let reason = PluginTrust.reasonNotToTrust(invocation.path)
        {
            withholdToken = true
            printer.warning("conn-\(invocation.name) runs without the token, though pluginsWithToken names it: \(reason), "
                + "so someone else could replace \(invocation.path). Make it writable by its owner only (chmod go-w).")
        }
        let pluginEnvironment = PluginEnvironment.make(
            base: environment, configuration: configuration, verbosity: verbosity,
            connExecutable: Self.currentExecutable(), plugin: invocation.name, withholdToken: withholdToken)
        if CommandSession.isEmbedded {
            return runAsChild(invocation, environment: pluginEnvironment, printer: printer)
        }

        let argv = ["conn-" + invocation.name] + invocation.arguments
        let envp = pluginEnvironment.map { "\($0.key)=\($0.value)" }
        let failure = withCStrings(argv) { argvPointers in
            withCStrings(envp) { envpPointers in
                // ETXTBSY: the file is still open for writing somewhere (a plugin just installed,
                // or a process forked while it was written); that passes within moments.
                for _ in 0..<50 {
                    execve(invocation.path, argvPointers, envpPointers)
                    guard errno == ETXTBSY else { break }
                    usleep(10_000)
                }
                return errno
            }
        }
        let reason = String(cString: strerror(failure))
        printer.error(ConnError(
            code: .pluginFailed, message: "cannot run plugin \(invocation.path): \(reason)",
            hint: failure == ENOEXEC ? "A script needs a #! line naming its interpreter." : nil,
            exitStatus: failure == EACCES ? .permission : .unavailable))
        return (failure == EACCES ? ExitStatus.permission : .unavailable).rawValue
    }

    /// Runs the plugin as a child with the terminal (a foreground job in conn's process group),
    /// and waits for it. Its exit status is the command's; death by a signal is 128 + the
    /// signal, as a shell reports it.
    static func runAsChild(_ invocation: PluginInvocation, environment: [String: String], printer: Printer) -> Int32 {
        do {
            return try ForegroundChild.run(invocation.path, arguments: ["conn-" + invocation.name] + invocation.arguments,
                                           environment: environment)
        } catch {
            let reason = String(cString: strerror(error.errno))
            printer.error(ConnError(
                code: .pluginFailed, message: "cannot run plugin \(invocation.path): \(reason)",
                hint: error.errno == ENOEXEC ? "A script needs a #! line naming its interpreter." : nil,
                exitStatus: error.errno == EACCES ? .permission : .unavailable))
            return (error.errno == EACCES ? ExitStatus.permission : .unavailable).rawValue
        }
    }

    static func currentExecutable() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// Calls `body` with a NULL-terminated C array of `strings`, freed afterwards.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
    ) -> Result {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
