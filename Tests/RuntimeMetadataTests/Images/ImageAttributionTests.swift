// ImageAttributionTests.swift
//
// Each type descriptor listed under the one image that declares it.

import Testing

@testable import RuntimeMetadata

@Suite("Image attribution")
struct ImageAttributionTests {
    @Test("Each type descriptor is listed under exactly one image, the one that declares it")
    func typesListedOnce() {
        var seen: [TypeDescriptor: String] = [:]
        var duplicates: [String] = []
        for image in Image.all {
            for descriptor in image.typeDescriptors {
                if let other = seen.updateValue(image.fileName, forKey: descriptor) {
                    duplicates.append("\(descriptor.qualifiedName) in \(other) and \(image.fileName)")
                }
            }
        }
        #expect(duplicates.isEmpty, "\(duplicates.prefix(10))")
        // Swift.Optional was listed under Synchronization, RegexParser and StringProcessing too.
        let optional = TypeMetadata(Int?.self).descriptor
        #expect(seen.first { $0.key == optional }?.value == "libswiftCore.so")
        #expect(seen.count > 1_000)
    }
}
