// swift-tools-version:6.0
// The least a SwiftNIO program pays for `conn probe --file`'s network work (bench/cases/probe.sh):
// the floor that conn's figure is compared to, as bench/tools/sqlite-floor.py is for inbox fetch.
import PackageDescription

let package = Package(
    name: "nio-floor",
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        .executableTarget(
            name: "nio-floor",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
    ]
)
