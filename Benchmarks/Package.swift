// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "RuntimeMetadataBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RuntimeMetadata", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        // The peer ValueDump's diff is measured against (issue 31).
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", exact: "1.7.3"),
    ],
    targets: [
        .executableTarget(
            name: "RuntimeMetadataBenchmarks",
            dependencies: [
                .product(name: "RuntimeMetadata", package: "RuntimeMetadata"),
                .product(name: "ValueDump", package: "RuntimeMetadata"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ],
            path: "Benchmarks/RuntimeMetadataBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ScaleProbe",
            dependencies: [.product(name: "RuntimeMetadata", package: "RuntimeMetadata")],
            path: "Tools/ScaleProbe"
        ),
        // The framework-shaped warm probe (issue 47), built in the Swift 5 language mode as
        // frameworks that have not moved to 6 are.
        .executableTarget(
            name: "FrameworkShapeProbe",
            dependencies: [.product(name: "RuntimeMetadata", package: "RuntimeMetadata")],
            path: "Tools/FrameworkShapeProbe",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "CensusTarget",
            path: "Tools/CensusTarget"
        ),
        // The census's floor: the same heap and image bytes read into one reused buffer, in C.
        .executableTarget(
            name: "HeapReadFloor",
            path: "Tools/HeapReadFloor"
        ),
        .executableTarget(
            name: "CensusBench",
            dependencies: [
                .product(name: "RuntimeMetadata", package: "RuntimeMetadata"),
                .product(name: "MetadataInspector", package: "RuntimeMetadata"),
            ],
            path: "Tools/CensusBench"
        ),
        .executableTarget(
            name: "ViewGraphBenchmarks",
            dependencies: [
                .product(name: "ViewGraph", package: "RuntimeMetadata"),
                .product(name: "RuntimeMetadata", package: "RuntimeMetadata"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ViewGraphBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
