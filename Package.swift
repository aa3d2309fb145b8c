// swift-tools-version: 6.2
// conn — a connectivity toolkit for the shell.
//
// Layout: ConnCore (shared logic, no ArgumentParser) ← ConnCommandKit (global options, context,
// printer) ← one module per capability ← ConnLive (the live runtime watch, agent and repl share)
// ← those three ← the `conn` executable (root command + module list). ARCHITECTURE.md draws it.
import PackageDescription

let strictSwift: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

// The release binaries as shipped (scripts/install, scripts/package; build them with
// scripts/build-release). The static Swift runtime's link arguments export every symbol of the
// executable's own objects (-export-dynamic): 5 MB of dynamic symbol tables nothing looks up.
// `-z now`: the few dynamic symbols left are bound at start, so the whole GOT can be read-only
// (full RELRO, lintian's hardening-no-bindnow). lld, for two things gold cannot do: lay out the
// functions the everyday commands run together (--symbol-ordering-file; the order comes from
// scripts/update-startup-order), and pack the ~147,000 relative relocations of Swift's metadata
// into 28 KB (`-z pack-relative-relocs`, DT_RELR, glibc ≥ 2.36) instead of a 3.6 MB table the
// loader reads through at every start. Together: `config show` peaks at 17 MB instead of 27.
let shippedExecutable: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld",
            "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "now",
            "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/lib/startup-symbols.order",
            // The order names conn's functions; conn-server has few of them.
            "-Xlinker", "--no-warn-symbol-ordering",
        ],
        .when(configuration: .release)
    ),
]

let package = Package(
    name: "conn",
    // Linux only (rtnetlink, Glibc, getifaddrs, GNU readline): no Apple platform is declared,
    // because none is supported.
    products: [
        .executable(name: "conn", targets: ["conn"]),
        .executable(name: "conn-server", targets: ["conn-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: ["YAML"]),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // Shared core: configuration, paths, endpoint model, HTTP transport, database, models,
        // errors and exit codes, output model. Deliberately free of ArgumentParser.
        .target(
            name: "ConnCore",
            dependencies: [
                "ConnProtocol", "CSQLiteTuning", "CSpawn", "CMalloc",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSwift
        ),
        // The wire protocol shared by conn and conn-server: inbox e-mails (seed 003), message
        // submissions, time samples, WebSocket events, address validation. No dependencies.
        .target(name: "ConnProtocol", swiftSettings: strictSwift),
        // The thin layer every command shares: global options, the command context, the printer.
        .target(
            name: "ConnCommandKit",
            dependencies: [
                "ConnCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),
        // `conn config show|path|get|set|init|edit|profiles`.
        .target(
            name: "ConnConfigCommands",
            dependencies: ["ConnCore", "ConnCommandKit", "ConnProtocol"],
            swiftSettings: strictSwift
        ),
        // `conn probe`: the reachability ladder (DNS, route and interface, TCP, TLS, HTTP) and
        // the internet check.
        .target(
            name: "ConnProbe",
            dependencies: [
                "ConnCore", "ConnCommandKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                // The certificate's subject, read from its DER (NIOSSL shows only the CN).
                .product(name: "X509", package: "swift-certificates"),
                // --format prometheus, and the per-target families of every /metrics.
                .product(name: "Prometheus", package: "swift-prometheus"),
                // --count's percentiles in bounded memory, however many rounds.
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strictSwift
        ),
        // `conn clock-offset`: json, ws, http-date and sntp methods, the NTP clock filter.
        .target(
            name: "ConnClock",
            dependencies: [
                "ConnCore", "ConnCommandKit", "ConnProtocol",
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
                // The json method's own connection, t1 and t4 read on its event loop.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSwift
        ),
        // `conn inbox fetch|list|thread`: the inbox cache and conversation threading.
        .target(
            name: "ConnInbox",
            dependencies: [
                "ConnCore", "ConnCommandKit", "ConnProtocol", "ConnOutbox",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for DirectStatement.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strictSwift
        ),
        // `conn outbox`: the durable queue of outgoing messages, leases, delivery with
        // idempotency keys and backoff, resend and delete.
        .target(
            name: "ConnOutbox",
            dependencies: [
                "ConnCore", "ConnCommandKit", "ConnProtocol",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSwift
        ),
        // `conn send`: validate a message, queue it durably, try it once (or until --wait ends).
        // `conn login` / `conn logout`: seed 003's sign-in, the token kept for the profile.
        .target(
            name: "ConnAccount",
            dependencies: ["ConnCore", "ConnCommandKit", "ConnProtocol", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ConnSend",
            dependencies: ["ConnCore", "ConnCommandKit", "ConnProtocol", "ConnOutbox", "ConnInbox"],
            swiftSettings: strictSwift
        ),
        // `conn request` (any HTTP change through the outbox: durable, once, its answer kept) and
        // `conn get` (any resource offline-first, kept with its validators; `conn cache`).
        .target(
            name: "ConnRequest",
            dependencies: ["ConnCore", "ConnCommandKit", "ConnOutbox", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSwift
        ),
        // The live runtime that `conn watch`, `conn agent` and `conn repl` share: `LiveSession`
        // (the monitor machine and its driver, rtnetlink, the WebSocket link to the back end,
        // background delivery, inbox sync, the stored clock offset, the metrics they feed), and
        // the options that say what it watches. Commands consume its events; none wires them.
        .target(
            name: "ConnLive",
            dependencies: [
                "ConnCore", "ConnCommandKit", "ConnProtocol", "ConnProbe", "ConnOutbox", "ConnInbox", "ConnMetrics", "ConnClock", "ConnRequest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // `conn top`: the full-screen live view, from the agent's status or a live session of its own.
        .target(
            name: "ConnTop",
            dependencies: [
                "CCurses", "ConnCore", "ConnCommandKit", "ConnLive", "ConnProbe", "ConnOutbox", "ConnClock", "ConnAgent",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // `conn watch`: prints the live session's events, the banner, hooks, --until.
        .target(
            name: "ConnWatch",
            dependencies: [
                "ConnCore", "ConnCommandKit", "ConnLive", "ConnProbe", "ConnOutbox", "ConnMetrics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),
        // GNU readline (libreadline-dev) for `conn repl`. No pkgConfig: Debian's readline.pc
        // brings flags SwiftPM refuses.
        .systemLibrary(name: "CReadline", path: "Sources/CReadline"),
        // ncurses (libncurses-dev) for `conn top`: terminfo, the alternate screen, keys.
        .systemLibrary(name: "CCurses", path: "Sources/CCurses"),
        // sqlite3_config (variadic, so not callable from Swift) for the one setting conn changes.
        .systemLibrary(name: "CSQLiteTuning", path: "Sources/CSQLiteTuning"),
        // posix_spawn's closefrom and pidfd_open (glibc declares them for _GNU_SOURCE only):
        // children started without Foundation's Process (SpawnedProcess).
        .systemLibrary(name: "CSpawn", path: "Sources/CSpawn"),
        // glibc's malloc_trim and mallopt (malloc.h is not in the Glibc module): HeapTrim.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // crypt_r of libxcrypt: bcrypt for the basic_auth_users of --web-config-file.
        .systemLibrary(name: "CCrypt", path: "Sources/CCrypt"),
        // `conn repl`: the line editor, the shell-style tokenizer, completion from the command
        // tree, the background monitor and seed 001's warning rule.
        .target(
            name: "ConnRepl",
            dependencies: [
                "CReadline", "ConnCore", "ConnCommandKit", "ConnProbe", "ConnLive", "ConnInbox", "ConnOutbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // External plugins (`conn-NAME` on PATH): discovery, dispatch, `conn plugins list`.
        .target(
            name: "ConnPlugins",
            dependencies: ["ConnCore", "ConnCommandKit"],
            swiftSettings: strictSwift
        ),
        // The executable: root command, the list of built-in modules, plugin dispatch.
        // One target only, so `swift package generate-manual` can document it.
        // `conn agent`: the always-on half — the monitor, delivery and inbox sync of the modules
        // above, tied together with a lock, a control socket and systemd's notify protocol.
        // Prometheus metrics: the exposition of what a long-running conn knows, and the HTTP
        // listener of --metrics-listen.
        .target(
            name: "ConnMetrics",
            dependencies: [
                "ConnCore", "ConnProbe", "CCrypt",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSwift,
            plugins: [.plugin(name: "BuildInfo")]
        ),
        .target(
            name: "ConnAgent",
            dependencies: [
                "ConnCore", "ConnCommandKit", "ConnProbe", "ConnLive", "ConnInbox", "ConnOutbox", "ConnClock", "ConnMetrics",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "conn",
            dependencies: [
                "ConnCore",
                "ConnCommandKit",
                "ConnConfigCommands",
                "ConnAccount",
                "ConnPlugins",
                "ConnProbe",
                "ConnClock",
                "ConnInbox",
                "ConnOutbox",
                "ConnSend",
                "ConnRequest",
                "ConnWatch",
                "ConnRepl",
                "ConnAgent",
                "ConnTop",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift,
            linkerSettings: shippedExecutable,
            // BuildInfo.swift: the commit and its date, for `conn --version`.
            plugins: [.plugin(name: "BuildInfo")]
        ),
        .plugin(name: "BuildInfo", capability: .buildTool()),
        // Helpers shared by the test targets: temporary homes, running the built binaries.
        .target(
            name: "ConnTestSupport",
            dependencies: ["ConnCore", .product(name: "Subprocess", package: "swift-subprocess")],
            path: "Tests/ConnTestSupport",
            swiftSettings: strictSwift
        ),
        // The reference back end (issue 3): Hummingbird routes, the store, fault injection.
        .target(
            name: "ConnServer",
            dependencies: [
                "ConnProtocol",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "conn-server",
            dependencies: [
                "ConnServer",
                "ConnProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift,
            linkerSettings: shippedExecutable
        ),
        .testTarget(
            name: "ConnCoreTests",
            dependencies: [
                "ConnCore", "ConnTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ConnCommandKitTests",
            dependencies: ["ConnCore", "ConnCommandKit", "ConnConfigCommands", "ConnPlugins", "ConnTestSupport",
                           "ConnAccount", "ConnInbox", "ConnOutbox", "ConnSend", "conn-server"],
            swiftSettings: strictSwift
        ),
        // conn-server: its routes in-process (HummingbirdTesting), and the real process over HTTP and WebSocket on loopback.
        .testTarget(
            name: "ConnServerTests",
            dependencies: [
                "conn-server", "ConnServer", "ConnProtocol", "ConnCore", "ConnTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ConnProbeTests",
            dependencies: ["conn", "conn-server", "ConnProbe", "ConnCore", "ConnTestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ConnClockTests",
            dependencies: ["conn", "conn-server", "ConnClock", "ConnCommandKit", "ConnCore", "ConnTestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ConnInboxTests",
            dependencies: ["conn", "conn-server", "ConnInbox", "ConnCore", "ConnTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ConnRequestTests",
            dependencies: ["conn", "conn-server", "ConnCore", "ConnTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ConnOutboxTests",
            dependencies: ["conn", "conn-server", "ConnOutbox", "ConnCore", "ConnProtocol", "ConnTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ConnWatchTests",
            dependencies: ["conn", "conn-server", "ConnWatch", "ConnCore", "ConnTestSupport"],
            swiftSettings: strictSwift
        ),
        // The live runtime's machines and session in-process, with an injected clock and network source.
        .testTarget(
            name: "ConnLiveTests",
            dependencies: ["conn-server", "ConnLive", "ConnCore", "ConnCommandKit", "ConnProbe", "ConnOutbox", "ConnInbox", "ConnClock", "ConnTestSupport",
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ConnMetricsTests",
            dependencies: ["ConnMetrics", "ConnProbe", "ConnCore", "ConnTestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ConnAgentTests",
            dependencies: ["conn", "conn-server", "ConnAgent", "ConnLive", "ConnCore", "ConnTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ConnTopTests",
            dependencies: ["conn", "conn-server", "ConnTop", "ConnProbe", "ConnCore", "ConnTestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ConnReplTests",
            dependencies: ["conn", "conn-server", "ConnRepl", "ConnTestSupport"],
            swiftSettings: strictSwift
        ),
        // Drives the real `conn` binary as a user would (processes, files, PATH, exit codes).
        .testTarget(
            name: "ConnIntegrationTests",
            dependencies: ["conn", "ConnTestSupport"],
            swiftSettings: strictSwift
        ),
    ]
)
