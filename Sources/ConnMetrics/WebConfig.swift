import CCrypt
import ConnCore
import Foundation
import NIOSSL
import Yams

/// `--web-config-file`: the Prometheus exporter toolkit's web configuration, so the file that
/// protects node_exporter or the blackbox exporter protects conn's listener too:
///
/// ```yaml
/// tls_server_config:
///   cert_file: server.crt     # relative paths: from the file's own directory
///   key_file: server.key
///   min_version: TLS12        # or TLS13
/// basic_auth_users:
///   prometheus: $2y$10$…      # bcrypt hashes (htpasswd -nBC 10 prometheus)
/// ```
///
/// What conn does not implement (client certificates, cipher lists, http_server_config) is
/// refused by name rather than ignored: a file that asks for more protection than it gets must
/// not start a listener.
public struct WebConfig: Sendable {
    /// TLS for the listener; nil: plain HTTP.
    public var tls: TLSConfiguration?
    /// User name → bcrypt hash; empty: no authentication.
    public var users: [String: String]

    public init(tls: TLSConfiguration? = nil, users: [String: String] = [:]) {
        self.tls = tls
        self.users = users
    }

    /// Reads and checks `path`; any problem is a configuration error (78) naming the file and key.
    public static func load(_ path: String) throws -> WebConfig {
        func invalid(_ message: String, hint: String? = nil) -> ConnError {
            ConnError.configuration("--web-config-file \(path): \(message)", hint: hint)
        }
        let url = URL(fileURLWithPath: path)
        guard let handle = FileHandle(forReadingAtPath: path) else { throw invalid("cannot be read") }
        defer { try? handle.close() }
        // A web configuration is a few lines: more than 1 MiB is not one.
        let data = (try? handle.read(upToCount: 1_048_577)) ?? Data()
        guard data.count <= 1_048_576 else { throw invalid("larger than 1 MiB") }
        let text = String(decoding: data, as: UTF8.self)
        let document: Any?
        do { document = try Yams.load(yaml: text) } catch { throw invalid("not YAML: \(error)") }
        guard let root = (document ?? [String: Any]()) as? [String: Any] else { throw invalid("not a mapping of settings") }
        for key in root.keys where !["tls_server_config", "basic_auth_users"].contains(key) {
            throw invalid("'\(key)' is not supported by conn", hint: "conn reads tls_server_config (cert_file, key_file, min_version) and basic_auth_users.")
        }
        var config = WebConfig()
        if let users = root["basic_auth_users"] {
            guard let users = users as? [String: Any] else { throw invalid("basic_auth_users is not a mapping of user: bcrypt hash") }
            for (user, hash) in users {
                guard let hash = hash as? String, Self.isBcrypt(hash) else {
                    throw invalid("the password of user '\(user)' is not a bcrypt hash", hint: "Make one with: htpasswd -nBC 10 \(user) | cut -d: -f2")
                }
                guard !user.isEmpty, !user.contains(":") else { throw invalid("'\(user)' cannot be a user name") }
                config.users[user] = hash
            }
        }
        if let tls = root["tls_server_config"] {
            guard let tls = tls as? [String: Any] else { throw invalid("tls_server_config is not a mapping") }
            for key in tls.keys where !["cert_file", "key_file", "min_version"].contains(key) {
                throw invalid("tls_server_config.\(key) is not supported by conn", hint: "conn reads cert_file, key_file and min_version (TLS12, TLS13).")
            }
            guard let certificate = tls["cert_file"] as? String, let key = tls["key_file"] as? String else {
                throw invalid("tls_server_config needs cert_file and key_file")
            }
            let directory = url.deletingLastPathComponent()
            let resolve = { (file: String) in file.hasPrefix("/") ? file : directory.appendingPathComponent(file).path }
            let chain: [NIOSSLCertificate]
            let privateKey: NIOSSLPrivateKey
            do { chain = try NIOSSLCertificate.fromPEMFile(resolve(certificate)) } catch {
                throw invalid("cert_file \(resolve(certificate)) is not a PEM certificate: \(error)")
            }
            do { privateKey = try NIOSSLPrivateKey(file: resolve(key), format: .pem) } catch {
                throw invalid("key_file \(resolve(key)) is not a PEM private key: \(error)")
            }
            guard !chain.isEmpty else { throw invalid("cert_file \(resolve(certificate)) holds no certificate") }
            var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
            switch tls["min_version"] as? String {
            case nil, "TLS12": configuration.minimumTLSVersion = .tlsv12
            case "TLS13": configuration.minimumTLSVersion = .tlsv13
            case let other?: throw invalid("tls_server_config.min_version '\(other)' is not TLS12 or TLS13")
            }
            config.tls = configuration
        }
        return config
    }

    /// `$2a$`, `$2b$` or `$2y$`, a two-digit cost, and 53 characters of salt and hash.
    static func isBcrypt(_ hash: String) -> Bool {
        hash.count == 60 && ["$2a$", "$2b$", "$2y$"].contains(String(hash.prefix(4)))
            && hash.dropFirst(4).prefix(2).allSatisfy(\.isNumber) && hash.dropFirst(6).first == "$"
    }

    /// Whether an Authorization header passes: always, with no users; else Basic credentials of
    /// a listed user whose password matches its hash.
    public func authorizes(_ authorization: String?) -> Bool {
        guard !users.isEmpty else { return true }
        guard let authorization, authorization.count <= 4096, authorization.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return false }
        let user = String(text[..<colon]), password = String(text[text.index(after: colon)...])
        // An unknown user costs a bcrypt too, so the time does not tell which users exist.
        let hash = users[user] ?? Self.decoyHash
        return Self.bcrypt(password, matches: hash) && users[user] != nil
    }

    static let decoyHash = "$2y$10$" + String(repeating: "a", count: 53)

    /// crypt_r(3) of libxcrypt, compared in constant time.
    static func bcrypt(_ password: String, matches hash: String) -> Bool {
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer { data.deallocate() }
        memset(data, 0, MemoryLayout<crypt_data>.size)
        guard let result = crypt_r(password, hash, data) else { return false }
        let computed = Array(String(cString: result).utf8), expected = Array(hash.utf8)
        guard computed.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in computed.indices { difference |= computed[index] ^ expected[index] }
        return difference == 0
    }
}
