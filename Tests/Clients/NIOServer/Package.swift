// swift-tools-version: 6.1
// A swift-nio HTTP/1.1 server for Tests/Clients/NIOServer/run.py: the census of a real server.
// Built in release from the machine's copy of swift-nio; nothing of swift-nio is committed.
import PackageDescription

let package = Package(
    name: "NIOServer",
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3")
    ],
    targets: [
        .executableTarget(
            name: "Server",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        )
    ]
)
