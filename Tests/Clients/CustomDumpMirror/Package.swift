// swift-tools-version: 6.1
//
// RuntimeMetadata's proof with a real client (issue 39): swift-custom-dump's own test suite,
// run with every `Mirror` of its module replaced by RuntimeMirror. This package only resolves
// customDump 1.7.3 from the machine's local copy; `run.py` copies customDump's sources and tests
// out of the resolved checkout into a build folder, makes the changes it lists, and runs the
// suite there. None of customDump's files are committed.

import PackageDescription

let package = Package(
    name: "CustomDumpMirror",
    dependencies: [
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", exact: "1.7.3")
    ],
    targets: [
        .target(
            name: "Checkout",
            dependencies: [.product(name: "CustomDump", package: "swift-custom-dump")],
            path: "Sources/Checkout"
        )
    ]
)
