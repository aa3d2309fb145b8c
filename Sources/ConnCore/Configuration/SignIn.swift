import ConnProtocol
import Foundation

/// What `conn login` keeps for a profile: the token a server granted for an e-mail and password,
/// until when, and which server (origin) granted it — the only one it is ever sent to. One file
/// per profile in the data directory, readable by its owner only (0600, in a 0700 directory).
public struct SignIn: Codable, Sendable, Equatable {
    public var email: String
    public var token: String
    public var expiresAt: Date
    /// The base URL of the server that granted it.
    public var server: String
    public var signedInAt: Date

    public init(email: String, token: String, expiresAt: Date, server: String, signedInAt: Date) {
        self.email = email
        self.token = token
        self.expiresAt = expiresAt
        self.server = server
        self.signedInAt = signedInAt
    }

    /// The file of `profile`'s sign-in: `DATA/sessions/PROFILE.json` (the name escaped).
    public static func file(paths: ConnPaths, profile: String) -> String {
        // ASCII letters, digits and ._- stay; anything else is %XX, the scalar's value in hex
        // (at least two digits). By hand: CharacterSet, String(format:) and joined() each cost
        // start-up time on the first use, and every command that reads the settings is here.
        var safe = ""
        for scalar in profile.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar) {
                safe.unicodeScalars.append(scalar)
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                safe += "%" + (hex.count < 2 ? "0" + hex : hex)
            }
        }
        return paths.dataDirectory + "/sessions/" + (safe.hasPrefix(".") ? "%2E" + safe.dropFirst() : safe) + ".json"
    }

    /// The sign-in kept at `path`; nil when there is none. A file that is not one (damaged, or
    /// someone else's to write) is an error naming it.
    public static func load(from path: String) throws -> SignIn? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        guard status.st_uid == getuid(), status.st_mode & 0o077 == 0 else {
            throw ConnError.configuration("the sign-in file \(path) is open to other users or not yours: it is not used",
                                          hint: "Remove it (`conn logout`, or rm) and run `conn login` again.")
        }
        guard status.st_size <= 64 * 1024, let data = FileManager.default.contents(atPath: path),
            let signIn = try? decoder.decode(SignIn.self, from: data), SessionGrant.isAcceptableToken(signIn.token)
        else {
            throw ConnError.configuration("the sign-in file \(path) is damaged", hint: "Run `conn login` again (or remove the file).")
        }
        return signIn
    }

    /// Writes it to `path` atomically, owner-only.
    public func save(to path: String) throws {
        try AtomicFile.replace(path, with: try Self.encoder.encode(self), mode: 0o600)
    }

    /// Whether it belongs to `server` (same scheme, host and port).
    public func isFor(server url: URL) -> Bool {
        guard let mine = URL(string: server).flatMap(Origin.init), let theirs = Origin(url) else { return false }
        return mine == theirs
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
