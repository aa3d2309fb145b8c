import Foundation

/// A file named on the command line (or standard input for `-`), read with a size cap: sizes are
/// checked before memory is spent, so `yes |` or `/dev/zero` ends with an error instead of
/// growing until the process is killed.
public enum InputFile {
    /// Reads `path` (nil: standard input) up to `limit` bytes. Returns nil when there is more
    /// than that (the caller says what the limit is for). A missing or unreadable file is 66,
    /// named by `option` (`--file`).
    public static func read(_ path: String?, option: String, limit: Int) throws -> Data? {
        let name = path.map { "\(option) \($0)" } ?? "standard input"
        let handle: FileHandle
        if let path {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ConnError(code: .noInput, message: "\(name) does not exist", exitStatus: .noInput)
            }
            guard !isDirectory.boolValue, let opened = FileHandle(forReadingAtPath: path) else {
                throw ConnError(code: .noInput, message: "\(name) cannot be read", hint: "Check that it is a file you may read.", exitStatus: .noInput)
            }
            handle = opened
        } else {
            handle = FileHandle.standardInput
        }
        defer { if path != nil { try? handle.close() } }
        // One byte past the limit is enough to know it is too large.
        var data = Data()
        while data.count <= limit {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: min(64 * 1024, limit + 1 - data.count))
            } catch {
                throw ConnError(code: .noInput, message: "\(name) cannot be read: \(error.localizedDescription)", exitStatus: .noInput)
            }
            guard let chunk, !chunk.isEmpty else { break }
            data.append(chunk)
        }
        return data.count > limit ? nil : data
    }
}
