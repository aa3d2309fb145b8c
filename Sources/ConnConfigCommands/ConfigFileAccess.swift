import ConnCore
import Foundation

/// Reading and writing the config file for the commands that change it. Every write is checked
/// by the loader first (`ConfigurationLoader.check`) and replaces the file atomically.
struct ConfigFileAccess {
    let path: String
    let environment: [String: String]

    /// The file's text; nil when there is no file.
    func read() throws -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: path) else {
            throw ConnError(code: .noInput, message: "config file \(path) cannot be read",
                            hint: "Check that it is a file and that you may read it.", exitStatus: .noInput)
        }
        let data = try ConfigFileReader.read(path)
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConnError.configuration("config file \(path) is not UTF-8 text", hint: "Fix it by hand: conn config edit")
        }
        return text
    }

    /// Checks `text` as every command would read it. `shownAs`: the file the text is in, for
    /// the lines an error names (the editor's copy, whose lines they are); the file by default.
    func check(_ text: String, shownAs: String? = nil) throws -> ConfigFileCheck {
        try ConfigurationLoader.check(candidateText: text, path: shownAs ?? path, environment: environment)
    }

    /// Replaces the file with `text`, as `check` found it. A new file is 0600, an existing one
    /// keeps its mode, except that a file holding a token loses what others could read (returned
    /// as a note).
    @discardableResult
    func write(_ text: String, checked: ConfigFileCheck) throws -> String? {
        var mode = AtomicFile.mode(of: path) ?? 0o600
        var note: String?
        if checked.holdsToken, mode & 0o077 != 0 {
            note = "\(path) holds a token: its mode is now 600 (was \(String(mode, radix: 8)))"
            mode &= 0o700
        }
        try AtomicFile.replace(path, with: Data(text.utf8), mode: mode)
        return note
    }
}
