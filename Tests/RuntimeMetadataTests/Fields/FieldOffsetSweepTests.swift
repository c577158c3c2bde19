// FieldOffsetSweepTests.swift
//
// Every field of every non-generic struct and class in every loaded image, checked against
// the standard library's own field walk (`_forEachField`, stdlib/public/core/ReflectionMirror.swift,
// an SPI written apart from this library) and against the value witnesses' size: each field
// lies within its type's storage. A zero-sized field (an empty struct, such as
// `_StringProcessing.Processor.metrics`) has no storage and sits at offset 0, as the compiler's
// `MemoryLayout.offset(of:)` places it. A property's stored size (`Field.storedSize`) ends
// before the next one starts.

import Fixtures
import Foundation
@_spi(Reflection) import Swift
import Testing

@testable import RuntimeMetadata

/// The standard library's view of a type's fields: names and offsets, in order.
private func standardLibraryFields(of type: Any.Type, isClass: Bool) -> [(name: String, offset: Int)]? {
    var fields: [(name: String, offset: Int)] = []
    // `_EachFieldOptions.classType` is a `static var` the strict concurrency checker refuses;
    // its raw value is 1 (stdlib/public/core/ReflectionMirror.swift).
    let options = _EachFieldOptions(rawValue: isClass ? 1 : 0)
    let walked = _forEachField(of: type, options: options) { name, offset, _, _ in
        fields.append((String(cString: name), offset))
        return true
    }
    return walked ? fields : nil
}

@Suite("Reliability: field offset sweep")
struct FieldOffsetSweepTests {
    @Test("Every field of every loaded non-generic type agrees with _forEachField and lies within its type")
    func sweep() async {
        await #expect(processExitsWith: .success) {
            _ = Date()
            var checkedTypes = 0
            var checkedFields = 0
            var disagreements: [String] = []
            for descriptor in TypeDescriptor.allLoaded() where !descriptor.isGeneric && descriptor.hasMetadata {
                guard let metadata = descriptor.metadata, metadata.kind == .struct || metadata.kind == .class,
                    let type = metadata.type, let fields = try? metadata.fields
                else { continue }
                let isClass = metadata.kind == .class
                guard let oracle = standardLibraryFields(of: type, isClass: isClass) else { continue }
                checkedTypes += 1
                let ours = fields.map { (name: $0.name, offset: $0.offset) }
                if ours.map(\.name) != oracle.map(\.name) || ours.map(\.offset) != oracle.map(\.offset) {
                    disagreements.append("\(metadata.name): \(ours) vs \(oracle)")
                }
                // Each field within the value (structs) or past the object header (classes).
                let extent = isClass ? (metadata.instanceSize ?? Int.max) : metadata.size
                for (index, field) in fields.enumerated() {
                    checkedFields += 1
                    guard let fieldType = field.type else { continue }
                    // The size the property is stored in (a thin metatype takes none), which
                    // ends before the next property starts: the compiler's offsets check it.
                    let size =
                        field.ownership == .strong ? (field.storedSize ?? fieldType.size) : MemoryLayout<UInt>.size
                    // A property stored in no bytes sits at offset 0, in a class too.
                    if (field.offset < (isClass ? 16 : 0) && size > 0) || field.offset + size > extent {
                        disagreements.append("\(metadata.name).\(field.name) at \(field.offset), size \(size)")
                    }
                    let next = fields[(index + 1)...].first { ($0.storedSize ?? 1) > 0 && $0.offset > 0 }
                    if let next, size > 0, field.offset + size > next.offset {
                        disagreements.append("\(metadata.name).\(field.name) overlaps \(next.name)")
                    }
                    if size == 0 && !isClass && field.offset != 0 && fieldType.kind == .struct {
                        disagreements.append("\(metadata.name).\(field.name): zero-sized at \(field.offset)")
                    }
                }
            }
            print("sweep: \(checkedTypes) types, \(checkedFields) fields")
            #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
            #expect(checkedTypes > 500)
        }
    }

    @Test("Zero-sized fields sit at offset 0, as MemoryLayout.offset(of:) says")
    func zeroSizedFields() throws {
        let metadata = TypeMetadata(HoldsEmpty.self)
        #expect(try metadata.field(named: "empty").offset == MemoryLayout<HoldsEmpty>.offset(of: \HoldsEmpty.empty))
        #expect(try metadata.field(named: "after").offset == MemoryLayout<HoldsEmpty>.offset(of: \HoldsEmpty.after))
    }
}
