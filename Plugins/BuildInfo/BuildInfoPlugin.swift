import Foundation
import PackagePlugin

/// Writes BuildInfo.swift — the commit and its date, for `conn --version` — before each build of
/// the target that uses it, with scripts/build-info (git, or CONN_BUILD_COMMIT/CONN_BUILD_DATE
/// when building from a tarball). The file is rewritten only when its text changes, so an
/// unchanged commit does not make the target build again.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        return [
            .prebuildCommand(
                displayName: "Build info (commit and date) for \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [context.package.directoryURL.appending(path: "scripts/build-info").path,
                            context.package.directoryURL.path, output.appending(path: "BuildInfo.swift").path],
                outputFilesDirectory: output)
        ]
    }
}
