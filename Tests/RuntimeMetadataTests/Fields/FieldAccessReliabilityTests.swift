// FieldAccessReliabilityTests.swift
//
// Reproducers of crashes in field and payload access, each run in a child process so that a
// regression fails its test instead of taking the test runner down: existential roots in
// generic code, weak and unowned class-bound existential fields, and function values.

import Fixtures
import RuntimeMetadata
import Testing

/// Reads `field` from a root whose static type is a generic parameter, as a framework does
/// with what its users hand it.
private func readThroughGeneric<Root>(_ root: Root, field: Field) throws -> Any {
    try field.value(in: root)
}

/// Writes through a generic root.
private func writeThroughGeneric<Root>(_ value: Int, to root: inout Root, field: Field) throws {
    try field.setValue(value, in: &root)
}

@Suite("Field access from generic code, through existentials and references")
struct ValueAccessReliabilityTests {
    @Test("A field read through a generic Any root: Holder<Any> reading the value it holds")
    func genericAnyRoot() async {
        await #expect(processExitsWith: .success) {
            let holder = Holder<Any>(Point(x: 3, y: 4))
            let field = try TypeMetadata(Point.self).field(named: "x")
            let value = try readThroughGeneric(holder.held, field: field)
            #expect(value as? Int == 3)
            var root = holder.held
            try writeThroughGeneric(9, to: &root, field: field)
            #expect((root as? Point)?.x == 9)
            // A root of `any P` in generic code.
            let existential: any FixtureProtocol = Point(x: 5, y: 6)
            #expect(try readThroughGeneric(existential, field: field) as? Int == 5)
            // An Any nested in an Any, as generic code makes it.
            let nested = Holder<Any>(holder.held as Any)
            #expect(try readThroughGeneric(nested.held, field: field) as? Int == 3)
            // A root of the wrong type still throws.
            #expect(throws: RuntimeMetadataError.self) { try readThroughGeneric("text" as Any, field: field) }
        }
    }

    @Test("The Any read from an any P field is a root like any other")
    func existentialFieldAsRoot() async {
        await #expect(processExitsWith: .success) {
            let holds = HoldsExistential(item: Point(x: 7, y: 8), anything: Point(x: 1, y: 2))
            let metadata = TypeMetadata(HoldsExistential.self)
            let item = try metadata.field(named: "item").value(in: holds)
            // The Any holds the Point itself, as `as Any` would, not a box of `any P`.
            #expect(item is Point)
            #expect(type(of: item) == Point.self)
            let x = try TypeMetadata(Point.self).field(named: "x")
            #expect(try x.value(in: item) as? Int == 7)
            let anything = try metadata.field(named: "anything").value(in: holds)
            #expect(try x.value(in: anything) as? Int == 1)
        }
    }

    @Test("weak and unowned class-bound existential fields: written, then called natively")
    func weakExistentialWrite() async {
        await #expect(processExitsWith: .success) {
            let dog = Dog()
            let cat = Cat()
            var references = SpeakerReferences(delegate: dog, owner: dog)
            let metadata = TypeMetadata(SpeakerReferences.self)
            try metadata.field(named: "delegate").setValue(cat, in: &references)
            #expect(references.delegate?.speak() == "meow")
            try metadata.field(named: "owner").setValue(cat as any Speaker, in: &references)
            #expect(references.owner.speak() == "meow")
            #expect(references.owner === cat)
            try metadata.field(named: "delegate").setValue(Optional<any Speaker>.none, in: &references)
            #expect(references.delegate == nil)
            // Read back through the library.
            try metadata.field(named: "delegate").setValue(dog as any Speaker, in: &references)
            let read = try metadata.field(named: "delegate").value(in: references, as: (any Speaker)?.self)
            #expect(read?.speak() == "woof")
            let owner = try metadata.field(named: "owner").value(in: references, as: (any Speaker).self)
            #expect(owner.speak() == "meow")
            // A class that is not a Speaker is refused, and nothing changes.
            #expect(throws: RuntimeMetadataError.self) {
                try metadata.field(named: "owner").setValue(ReferenceFixture.shared, in: &references)
            }
            #expect(references.owner === cat)
            withExtendedLifetime((dog, cat)) {}
        }
    }

    @Test("Function values stored with their own calling convention are refused, not bit-cast")
    func functionFields() async {
        await #expect(processExitsWith: .success) {
            var callbacks = Callbacks()
            let metadata = TypeMetadata(Callbacks.self)
            for name in ["transform", "optional", "pair"] {
                let field = try metadata.field(named: name)
                #expect(throws: RuntimeMetadataError.self) { _ = try field.value(in: callbacks) }
                #expect(throws: RuntimeMetadataError.self) {
                    _ = try field.value(in: callbacks, as: ((Int) -> Int).self)
                }
            }
            #expect(throws: RuntimeMetadataError.self) {
                try metadata.field(named: "transform").setValue({ (x: Int) in x + 10 }, in: &callbacks)
            }
            #expect(callbacks.transform(1) == 2)
            // A function held through a generic parameter is stored as generic code expects it.
            let boxed = try metadata.field(named: "boxed").value(in: callbacks, as: GenericBox<(Int) -> Int>.self)
            #expect(boxed.value(1) == 5)
            let inner = try TypeMetadata(GenericBox<(Int) -> Int>.self).field(named: "value")
            let function = try inner.value(in: boxed, as: ((Int) -> Int).self)
            #expect(function(1) == 5)
            var box = boxed
            try inner.setValue({ (x: Int) in x * 100 }, in: &box)
            #expect(box.value(2) == 200)
            // Other fields of the same struct stay readable.
            #expect(try metadata.field(named: "count").value(in: callbacks, as: Int.self) == 4)
        }
    }

    @Test("Function payloads are refused, not bit-cast; generic ones are read")
    func functionPayloads() async {
        await #expect(processExitsWith: .success) {
            let metadata = TypeMetadata(Callback.self)
            let run = Callback.run { $0 + 1 }
            #expect(try metadata.caseName(of: run) == "run")
            #expect(throws: RuntimeMetadataError.self) { _ = try metadata.payload(of: run, as: Any.self) }
            #expect(throws: RuntimeMetadataError.self) {
                _ = try metadata.payload(of: run, as: ((Int) -> Int).self)
            }
            #expect(throws: RuntimeMetadataError.self) {
                let _: Callback = try metadata.makeValue(case: "run", payload: { (x: Int) in x })
            }
            let generic = Callback.generic(GenericBox(value: { $0 * 3 }))
            let payload = try metadata.payload(of: generic, as: GenericBox<(Int) -> Int>.self)
            #expect(payload?.value(2) == 6)
        }
    }
}

@Suite("Reference storage")
struct ReferenceStorageTests {
    @Test("weak and unowned fields read as Any have the property's own type, as Mirror and the compiler give it")
    func referenceFieldsAsAny() throws {
        let dog = Dog()
        let references = SpeakerReferences(delegate: dog, owner: dog)
        let metadata = TypeMetadata(SpeakerReferences.self)
        let delegate = try metadata.field(named: "delegate").value(in: references)
        #expect(Swift.type(of: delegate) == Optional<any Speaker>.self)
        #expect(Swift.type(of: delegate) == Swift.type(of: Mirror(reflecting: references).children.first!.value))
        let owner = try metadata.field(named: "owner").value(in: references)
        #expect((owner as? any Speaker)?.speak() == "woof")
        let fixture = ReferenceFixture.shared
        let ownership = OwnershipStruct(strong: fixture)
        let ownershipType = TypeMetadata(OwnershipStruct.self)
        for name in ["unownedObject", "unmanagedObject", "strong"] {
            let value = try ownershipType.field(named: name).value(in: ownership)
            #expect(Swift.type(of: value) == ReferenceFixture.self, "\(name)")
            #expect(value as? ReferenceFixture === fixture, "\(name)")
        }
        withExtendedLifetime(dog) {}
    }

    @Test("An optional unowned(unsafe) field holding nil reads as nil in a child process, never dereferenced")
    func optionalUnmanagedNil() async {
        await #expect(processExitsWith: .success) {
            let node = TreeNode(label: "root")
            let root = try TypeMetadata(TreeNode.self).field(named: "root")
            #expect(try root.value(in: node, as: TreeNode?.self) == nil)
            var any: Any = node
            #expect(throws: RuntimeMetadataError.self) { try root.setValue("text", in: &any) }
            try root.setValue(node, in: &any)
            #expect(node.root === node)
            try root.setValue(TreeNode?.none, in: &any)
            #expect(node.root == nil)
        }
    }
}
