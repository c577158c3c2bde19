// swift-tools-version: 6.1
//
// RuntimeMetadata's second real client (issue 45): GraphQL 4.3.0's own test suite, run with the
// `Mirror` of its default resolver replaced by RuntimeMirror. This package only resolves
// GraphQL 4.3.0 from the machine's local copy; `run.py` copies GraphQL's sources and tests out
// of the resolved checkout into a build folder, adds the alias to each file that names
// `Mirror`, and runs the suite there. None of GraphQL's files are committed.

import PackageDescription

let package = Package(
    name: "GraphQLMirror",
    dependencies: [
        .package(url: "https://github.com/GraphQLSwift/GraphQL", exact: "4.3.0")
    ],
    targets: [
        .target(
            name: "Checkout",
            dependencies: [.product(name: "GraphQL", package: "GraphQL")],
            path: "Sources/Checkout"
        )
    ]
)
