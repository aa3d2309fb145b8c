import ConnTestSupport
import Foundation
import Testing

/// What conn takes as settings and how it says no: `config get` for every key `config show`
/// lists, a config path that is not a regular file, a relative one, a proxy with a bracketed
/// host that is no IPv6 address, and the userinfo message read whole.
@Suite("settings as given")
struct SettingInputTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    @Test("config get answers proxy (its password as ***), noProxy, proxyInsecure and proxyCaCert from the file, with the file as source")
    func configGetProxyKeys() async throws {
        let ca = home.path + "/proxy-ca.pem"
        try FileManager.default.copyItem(atPath: "/etc/ssl/certs/ca-certificates.crt", toPath: ca)  // a real PEM file
        try home.write("config/conn/config.yaml", """
            proxy: http://pu:PW-of-proxy@127.0.0.1:3128
            noProxy: localhost,.corp.test
            proxyInsecure: true
            proxyCaCert: \(ca)
            """, mode: 0o600)
        for (key, expected) in [("proxy", "http://***@127.0.0.1:3128"), ("noProxy", "localhost,.corp.test"), ("proxyInsecure", "true"), ("proxyCaCert", ca)] {
            let text = try await home.conn(["config", "get", key])
            #expect(text.exitCode == 0 && text.standardOutput == expected + "\n", "\(key): \(text.standardOutput) \(text.standardError)")
            let json = try await home.conn(["config", "get", key, "--json"])
            let source = try #require(try json.json()["source"] as? [String: Any], "\(json.standardOutput)")
            #expect((source["detail"] as? String)?.contains("config.yaml") == true, "\(key): \(json.standardOutput)")
            #expect(!json.standardOutput.contains("PW-of-proxy") && !text.standardOutput.contains("PW-of-proxy"))
        }
        let unset = try await TemporaryDirectory().conn(["config", "get", "proxy"])
        #expect(unset.exitCode == 1 && unset.standardOutput.isEmpty, "\(unset.standardOutput)")
    }

    @Test("--config or CONN_CONFIG naming a FIFO, a character device or a directory: 78 naming it, at once (a FIFO was read for ever)")
    func configNotARegularFile() async throws {
        let fifo = home.path + "/config-fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "a FIFO"), ("/dev/null", "a character device"), (home.path, "a directory")] {
            // `timeout`: a conn that waits for a writer ends as 124 instead of holding the test.
            let flag = try await ConnProcess.run("/usr/bin/timeout", ["10", ConnProcess.connPath, "--config", path, "config", "show"], environment: home.environment)
            #expect(flag.exitCode == 78 && flag.standardError.contains(path) && flag.standardError.contains(kind), "\(path): \(flag.exitCode) \(flag.standardError)")
            let variable = try await ConnProcess.run("/usr/bin/timeout", ["10", ConnProcess.connPath, "config", "show"],
                                                     environment: home.environment.merging(["CONN_CONFIG": path]) { $1 })
            #expect(variable.exitCode == 78 && variable.standardError.contains(kind), "\(path): \(variable.exitCode) \(variable.standardError)")
        }
    }

    @Test("a relative --config is the working directory's: config set creates it there, and config get reads it back")
    func relativeConfig() async throws {
        let directory = home.path + "/project"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = "cd '\(directory)' && \"$0\" --config conn.yaml config set timeout 7s && \"$0\" --config conn.yaml config get timeout"
        let outcome = try await ConnProcess.run("/bin/sh", ["-c", script, ConnProcess.connPath], environment: home.environment)
        #expect(outcome.exitCode == 0 && outcome.standardOutput.hasSuffix("7s\n"), "\(outcome.standardOutput) \(outcome.standardError)")
        #expect(FileManager.default.fileExists(atPath: directory + "/conn.yaml"))
    }

    @Test("a proxy whose bracketed host is not an IPv6 address is a usage error (64) naming it, not a name looked up (69); a real IPv6 literal is taken")
    func proxyBracketedHost() async throws {
        let bad = try await home.conn(["probe", "--proxy", "http://[zz]:1", "http://127.0.0.1:1/health"])
        #expect(bad.exitCode == 64 && bad.standardError.contains("[zz]") && bad.standardError.contains("not an IPv6 address"), "\(bad.exitCode) \(bad.standardError)")
        let fromFile = try await home.conn(["config", "show"], env: ["CONN_PROXY": "http://[zz]:1"])
        #expect(fromFile.standardOutput.contains("not an IPv6 address") || fromFile.exitCode == 78, "\(fromFile.standardOutput) \(fromFile.standardError)")
        let good = try await home.conn(["probe", "--json", "--proxy", "http://[::1]:\(try HTTPPorts.closed())", "http://127.0.0.1:1/health"])
        let verdict = (try good.json()["results"] as? [[String: Any]])?.first?["verdict"] as? String
        #expect(good.exitCode == 69 && verdict == "proxyUnreachable", "\(good.standardOutput)")
    }

    @Test("a server URL with user:password is refused in words that survive the redactor (it once printed '***@)'), the password nowhere")
    func userinfoMessageWhole() async throws {
        let outcome = try await home.conn(["--server", "http://ann:s3cret-pw@127.0.0.1:1", "probe"])
        #expect(outcome.exitCode == 64, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("contains a user name or password (user:password before an @), which conn neither sends nor keeps"),
                "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("***@)") && !outcome.standardError.contains("s3cret-pw"), "\(outcome.standardError)")
    }

    @Test("--insecure is never silent: one warning naming where it came from (flag, CONN_INSECURE, the file), none under -q, once in a REPL however many commands run")
    func insecureSaysSo() async throws {
        try await ServerProcess.with { url in
            let said = "TLS certificates are not checked (insecure, from "
            let flag = try await home.conn(["probe", "--insecure"], server: url)
            #expect(flag.exitCode == 0 && flag.standardError.components(separatedBy: said).count == 2
                    && flag.standardError.contains("from flag --insecure"), "\(flag.standardError)")
            let variable = try await home.conn(["probe"], server: url, env: ["CONN_INSECURE": "true"])
            #expect(variable.standardError.contains("from environment variable CONN_INSECURE"), "\(variable.standardError)")
            let quiet = try await home.conn(["probe", "--insecure", "-q"], server: url)
            #expect(quiet.exitCode == 0 && !quiet.standardError.contains(said), "\(quiet.standardError)")
            let plain = try await home.conn(["probe"], server: url)
            #expect(!plain.standardError.contains(said), "\(plain.standardError)")
            let repl = try await home.conn(["repl", "--insecure", "--no-internet"], server: url, input: "probe\nprobe\nstatus\n")
            #expect(repl.standardError.components(separatedBy: said).count == 2, "\(repl.standardError)")
        }
    }

    @Test("a proxy password planted in the config file is in no output of any command (text, JSON, -v, the REPL) and in no file conn writes")
    func proxyPasswordNowhere() async throws {
        let secret = "PW-sentinel-4711"
        let proxyPort = try HTTPPorts.closed()
        try home.write("config/conn/config.yaml", "proxy: http://pu:\(secret)@127.0.0.1:\(proxyPort)\nnoProxy: localhost\n", mode: 0o600)
        try await ServerProcess.with { url in
            let runs: [([String], String)] = [
                (["config", "show"], ""), (["config", "show", "--json"], ""), (["config", "get", "proxy"], ""), (["config", "get", "proxy", "--json"], ""),
                (["probe", "-v"], ""), (["probe", "-v", "--json"], ""), (["inbox", "fetch", "-v"], ""), (["inbox", "fetch", "--json"], ""),
                (["send", "-v", "--to", "a@b.cc", "--subject", "s", "--text", "t"], ""), (["outbox", "list", "--all", "--json"], ""), (["outbox", "flush", "-v"], ""),
                (["watch", "--json", "-v", "--no-internet", "--until", "online", "--timeout", "2s"], ""), (["clock-offset", "-v"], ""),
                (["repl", "--no-internet"], "status\nconfig show\nprobe -v\n"),
            ]
            for (arguments, input) in runs {
                let outcome = try await home.conn(arguments, server: url, input: input)
                #expect(!outcome.standardOutput.contains(secret) && !outcome.standardError.contains(secret),
                        "\(arguments) printed the proxy password: \(outcome.standardOutput.prefix(400)) \(outcome.standardError.prefix(400))")
            }
        }
        // Every file conn wrote (the database, its WAL, history, state), the config file aside: it is where the user put it.
        let enumerator = FileManager.default.enumerator(atPath: home.path)
        while let relative = enumerator?.nextObject() as? String {
            let path = home.path + "/" + relative
            guard !relative.hasSuffix("config/conn/config.yaml"), let data = FileManager.default.contents(atPath: path) else { continue }
            #expect(data.range(of: Data(secret.utf8)) == nil, "\(relative) holds the proxy password")
        }
    }
}
