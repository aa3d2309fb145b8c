import Foundation

/// Reads a config file with a cap: a conn config file is a few lines, so one larger than 1 MiB
/// (a runaway value, a huge comment, `/dev/zero` named by mistake) is refused before memory is
/// spent on it (a 200 MB value took 1.5 GB and 20 s to parse).
public enum ConfigFileReader {
    public static let maximumBytes = 1 << 20

    /// The file's bytes; throws 78 naming the size when it is larger than `maximumBytes`.
    public static func read(_ path: String) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ConnError.configuration("config file \(path) cannot be read", hint: "Check that it is a file and that you may read it.")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
        } catch {
            throw ConnError.configuration("config file \(path) cannot be read: \(error.localizedDescription)")
        }
        guard data.count <= maximumBytes else {
            var info = stat()
            let size = stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? "\(info.st_size) bytes" : "more than \(maximumBytes) bytes"
            throw ConnError.configuration(
                "config file \(path) is \(size), larger than the 1 MiB a config file may be",
                hint: "A conn config file is a few lines: check that \(path) is the file you meant.")
        }
        return data
    }
}
