// ExtensionContextNameTests.swift
//
// Extension contexts named by their extended type, as the runtime prints them.

import Testing

@testable import RuntimeMetadata

@Suite("Extension context names")
struct ExtensionContextTests {
    @Test("Every extension context names its extended type, as the runtime prints it, never '?'")
    func extendedTypesNamed() async {
        await #expect(processExitsWith: .success) {
            // _Differentiation extends generic standard-library types (Array.DifferentiableView).
            _ = try Image.load("/opt/swift/usr/lib/swift/linux/libswift_Differentiation.so")
            let descriptors = TypeDescriptor.allLoaded()
            let unnamed = descriptors.map(\.qualifiedName).filter { $0.contains("):?") }
            #expect(unnamed.isEmpty, "\(unnamed.prefix(10))")
            let view = descriptors.first { $0.qualifiedName.hasSuffix(".DifferentiableView") }
            #expect(view?.qualifiedName == "(extension in _Differentiation):Swift.Array.DifferentiableView")
        }
    }
}
