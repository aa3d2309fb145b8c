import Foundation

/// A private CA of the test's own and server certificates it signed, made with openssl: one for
/// 127.0.0.1 and localhost, one that expired in 2020, one for another name. The CA's file is what
/// a user gives to `--cacert`; none of them is trusted by the system.
public struct TestCertificates: Sendable {
    public let caFile: String
    public let key: String
    public let good: String
    public let expired: String
    public let otherName: String

    public init(in home: TemporaryDirectory) async throws {
        let directory = home.path + "/test-ca"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        caFile = directory + "/ca.pem"
        key = directory + "/server-key.pem"
        good = directory + "/good.pem"
        expired = directory + "/expired.pem"
        otherName = directory + "/other-name.pem"
        let caKey = directory + "/ca-key.pem", request = directory + "/server.csr"
        func openssl(_ arguments: [String]) async throws {
            let outcome = try await ConnProcess.run("/usr/bin/openssl", arguments, environment: ["PATH": "/usr/bin:/bin"])
            guard outcome.exitCode == 0 else { throw ServerProcess.StartFailure(description: "openssl \(arguments.first ?? ""): \(outcome.standardError)") }
        }
        try await openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey, "-out", caFile, "-days", "2",
                           "-subj", "/CN=conn-test-ca", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"])
        try await openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=conn-test-server"])
        // `openssl ca` sets any validity (x509 -req cannot make one in the past).
        let config = directory + "/ca.cnf"
        try """
            [ ca ]
            default_ca = test
            [ test ]
            database = \(directory)/index.txt
            new_certs_dir = \(directory)
            serial = \(directory)/serial
            default_md = sha256
            policy = anything
            unique_subject = no
            [ anything ]
            commonName = supplied
            """.write(toFile: config, atomically: true, encoding: .utf8)
        try "".write(toFile: directory + "/index.txt", atomically: true, encoding: .utf8)
        try "1000\n".write(toFile: directory + "/serial", atomically: true, encoding: .utf8)
        for (file, names, start, end) in [(good, "IP:127.0.0.1,DNS:localhost", nil, nil),
                                          (expired, "IP:127.0.0.1,DNS:localhost", "20200101000000Z", "20200102000000Z"),
                                          (otherName, "DNS:other.conn.test", nil, nil)] as [(String, String, String?, String?)] {
            let extensions = directory + "/\(UUID().uuidString).ext"
            try "subjectAltName=\(names)\n".write(toFile: extensions, atomically: true, encoding: .utf8)
            let dates = start.map { ["-startdate", $0, "-enddate", end ?? $0] } ?? ["-days", "1"]
            try await openssl(["ca", "-batch", "-notext", "-config", config, "-cert", caFile, "-keyfile", caKey, "-in", request, "-out", file,
                               "-extfile", extensions] + dates)
        }
    }
}
