// swift-tools-version: 6.2
import PackageDescription

/// Settings every Swift target of this package builds with.
let strictSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "RuntimeMetadata",
    products: [
        .library(name: "RuntimeMetadata", targets: ["RuntimeMetadata"]),
        .library(name: "MetadataInspector", targets: ["MetadataInspector"]),
        .library(name: "ViewGraph", targets: ["ViewGraph"]),
        .library(name: "ValueDump", targets: ["ValueDump"]),
        .executable(name: "metadata-inspect", targets: ["metadata-inspect"]),
        .executable(name: "viewgraph-example", targets: ["viewgraph-example"]),
    ],
    targets: [
        .target(
            name: "CMetadata",
            path: "CMetadata"
        ),
        .target(
            name: "RuntimeMetadata",
            dependencies: ["CMetadata"],
            swiftSettings: strictSettings + [.strictMemorySafety()]
        ),
        .target(
            name: "MetadataInspector",
            dependencies: ["RuntimeMetadata"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ValueDump",
            dependencies: ["RuntimeMetadata"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ViewGraph",
            dependencies: ["RuntimeMetadata"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ViewGraphExamples",
            dependencies: ["ViewGraph", "RuntimeMetadata"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "viewgraph-example",
            dependencies: ["ViewGraph", "ViewGraphExamples"],
            exclude: ["page.json"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "metadata-inspect",
            dependencies: ["MetadataInspector"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ResilientFixtures",
            path: "Tests/ResilientFixtures",
            swiftSettings: strictSettings + [.unsafeFlags(["-enable-library-evolution"])]
        ),
        .target(
            name: "Fixtures",
            dependencies: ["ResilientFixtures"],
            path: "Tests/Fixtures",
            swiftSettings: strictSettings
        ),
        .target(
            name: "FixturesWithoutReflection",
            path: "Tests/FixturesWithoutReflection",
            swiftSettings: strictSettings + [.unsafeFlags(["-Xfrontend", "-disable-reflection-metadata"])]
        ),
        .target(
            name: "Swift5Client",
            dependencies: ["RuntimeMetadata", "Fixtures", "ViewGraph", "ValueDump"],
            path: "Tests/Swift5Client",
            swiftSettings: [.treatAllWarnings(as: .error), .swiftLanguageMode(.v5)]
        ),
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RuntimeMetadataTests",
            dependencies: [
                "RuntimeMetadata", "Fixtures", "FixturesWithoutReflection", "ResilientFixtures", "Swift5Client",
                "ValueDump", "TestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ValueDumpTests",
            dependencies: ["ValueDump", "RuntimeMetadata", "Fixtures", "FixturesWithoutReflection", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ViewGraphTests",
            dependencies: ["ViewGraph", "ViewGraphExamples", "RuntimeMetadata", "Swift5Client", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MetadataInspectorTests",
            dependencies: ["MetadataInspector", "RuntimeMetadata", "Fixtures", "TestSupport"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
