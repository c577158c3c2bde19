// StoredRepresentationTests.swift
//
// Values stored in another form than their type's metadata (StoredRepresentation.swift): thin
// metatypes and the tuples, optionals and payloads declared with them. The oracles are the
// compiler's own layout (`MemoryLayout` of a one-property struct is the property's stored
// size), the properties read and written directly in code that names them, and `Mirror` and
// `Swift.dump` where they do not crash. Reads that crashed before run in child processes.

import Fixtures
import RuntimeMetadata
import Testing

// One property each: the struct's size is the property's stored size.
private struct OneThin { var x: Int.Type }
private struct OneOptional { var x: Int.Type? }
private struct OneDoubleOptional { var x: Int.Type?? }
private struct OneTuple { var x: (Int, Int.Type) }
private struct OneLabelled { var x: (count: Int, kind: String.Type, name: String) }
private struct OneOptionalTuple { var x: (Int.Type, Int.Type)? }
private struct OneMetatypeOfMetatype { var x: Int.Type.Type }
private struct OneExistential { var x: (any StoredFormProtocol).Type }
private struct OneFunction { var x: ((Int) -> Int).Type }
private struct OneClass { var x: StoredFormBase.Type }
private struct OneClassMetatypeOfMetatype { var x: StoredFormBase.Type.Type }
private struct OneAnyType { var x: Any.Type }
private struct OneExistentialMetatype { var x: any StoredFormProtocol.Type }
private struct OneParameter<T> { var x: T.Type }
private struct OneArrayOfParameter<T> { var x: [T].Type }
private struct OneMixed<T> { var x: (T, Int.Type) }
private struct OneOptionalParameter<T> { var x: T.Type? }

/// The stored size of each property of `StoredForms`, from the compiler.
private let storedFormSizes: [String: Int] = [
    "a": MemoryLayout<Int>.size,
    "optional": MemoryLayout<OneOptional>.size,
    "none": MemoryLayout<OneOptional>.size,
    "doubleOptional": MemoryLayout<OneDoubleOptional>.size,
    "tuple": MemoryLayout<OneTuple>.size,
    "labelled": MemoryLayout<OneLabelled>.size,
    "optionalTuple": MemoryLayout<OneOptionalTuple>.size,
    "metatypeOfMetatype": MemoryLayout<OneMetatypeOfMetatype>.size,
    "existential": MemoryLayout<OneExistential>.size,
    "function": MemoryLayout<OneFunction>.size,
    "classMetatype": MemoryLayout<OneClass>.size,
    "classMetatypeOfMetatype": MemoryLayout<OneClassMetatypeOfMetatype>.size,
    "anyType": MemoryLayout<OneAnyType>.size,
    "existentialMetatype": MemoryLayout<OneExistentialMetatype>.size,
    "b": MemoryLayout<Int>.size,
]

/// Each property of a `StoredForms` as its own code prints it.
private func directTexts(_ value: StoredForms) -> [String: String] {
    [
        "a": String(reflecting: value.a),
        "optional": String(reflecting: value.optional),
        "none": String(reflecting: value.none),
        "doubleOptional": String(reflecting: value.doubleOptional),
        "tuple": String(reflecting: value.tuple),
        "labelled": String(reflecting: value.labelled),
        "optionalTuple": String(reflecting: value.optionalTuple),
        "metatypeOfMetatype": String(reflecting: value.metatypeOfMetatype),
        "existential": String(reflecting: value.existential),
        "function": String(reflecting: value.function),
        "classMetatype": String(reflecting: value.classMetatype),
        "classMetatypeOfMetatype": String(reflecting: value.classMetatypeOfMetatype),
        "anyType": String(reflecting: value.anyType),
        "existentialMetatype": String(reflecting: value.existentialMetatype),
        "b": String(reflecting: value.b),
    ]
}

@Suite("Stored forms: thin metatypes and what is declared with them")
struct StoredRepresentationTests {
    @Test("The issue's reproducer: the thin property takes no bytes and reads as Int.self")
    func reproducer() throws {
        let fields = try TypeMetadata(ThinMetatypeHolder.self).fields
        #expect(MemoryLayout<ThinMetatypeHolder>.size == 16)
        #expect(fields.map(\.storedSize) == [8, MemoryLayout<OneThin>.size, 8])
        #expect(MemoryLayout<OneThin>.size == 0)
        #expect(fields[2].offset == MemoryLayout<ThinMetatypeHolder>.offset(of: \.b))
        var holder = ThinMetatypeHolder(a: 11, b: 22)
        let t = try fields[1].value(in: holder, as: Int.Type.self)
        #expect(t == Int.self)
        let read: Any = try fields[1].value(in: holder)
        #expect(String(reflecting: read) == String(reflecting: holder.t))
        try fields[1].setValue(Int.self, in: &holder)
        #expect(holder.a == 11 && holder.b == 22 && holder.t == Int.self)
        #expect(throws: RuntimeMetadataError.self) { try fields[1].setValue(String.self, in: &holder) }
        #expect(holder.a == 11 && holder.b == 22)
    }

    @Test("Every shape's stored size is the compiler's, and later offsets agree with MemoryLayout")
    func storedSizes() throws {
        let fields = try TypeMetadata(StoredForms.self).fields
        #expect(fields.count == storedFormSizes.count)
        for field in fields {
            #expect(field.storedSize == storedFormSizes[field.name], "\(field.name)")
        }
        #expect(fields.last?.offset == MemoryLayout<StoredForms>.offset(of: \.b))
        // Thick where the declaration names a type parameter, whatever it is bound to.
        let generic = try TypeMetadata(GenericStoredForms<Int>.self).fields
        let sizes = Dictionary(uniqueKeysWithValues: generic.map { ($0.name, $0.storedSize) })
        #expect(sizes["parameter"] == MemoryLayout<OneParameter<Int>>.size)
        #expect(sizes["array"] == MemoryLayout<OneArrayOfParameter<Int>>.size)
        #expect(sizes["mixed"] == MemoryLayout<OneMixed<Int>>.size)
        #expect(sizes["optionalParameter"] == MemoryLayout<OneOptionalParameter<Int>>.size)
        #expect(generic.last?.offset == MemoryLayout<GenericStoredForms<Int>>.offset(of: \.b))
    }

    @Test("Every shape reads as the property itself, and a copy of each writes back unchanged")
    func readsAndWrites() throws {
        let value = StoredForms()
        let expected = directTexts(value)
        let fields = try TypeMetadata(StoredForms.self).fields
        var copy = StoredForms()
        copy.a = 100
        copy.b = 200
        for field in fields {
            let read: Any = try field.value(in: value)
            #expect(String(reflecting: read) == expected[field.name], "\(field.name)")
            if field.name != "a" && field.name != "b" { try field.setValue(read, in: &copy) }
        }
        var texts = directTexts(copy)
        texts["a"] = expected["a"]
        texts["b"] = expected["b"]
        #expect(texts == expected)
        #expect(copy.a == 100 && copy.b == 200)
    }

    @Test("Writes change the stored value and nothing beside it")
    func writes() throws {
        let type = TypeMetadata(StoredForms.self)
        var value = StoredForms()
        try type.field(named: "optional").setValue(Int.Type?.none, in: &value)
        #expect(value.optional == nil)
        try type.field(named: "none").setValue(Int.self, in: &value)
        #expect(value.none == Int.self)
        try type.field(named: "doubleOptional").setValue(Int.Type??.some(.some(Int.self)), in: &value)
        #expect(String(reflecting: value.doubleOptional) == "Optional(Optional(Swift.Int))")
        try type.field(named: "tuple").setValue((9, Int.self), in: &value)
        #expect(value.tuple.0 == 9)
        try type.field(named: "labelled").setValue((count: 4, kind: String.self, name: "four"), in: &value)
        #expect(value.labelled.count == 4 && value.labelled.name == "four")
        try type.field(named: "optionalTuple").setValue((Int.Type, Int.Type)?.none, in: &value)
        #expect(value.optionalTuple == nil)
        try type.field(named: "classMetatype").setValue(StoredFormBase.self, in: &value)
        #expect(value.classMetatype == StoredFormBase.self)
        #expect(throws: RuntimeMetadataError.self) { try type.field(named: "tuple").setValue("nine", in: &value) }
        #expect(value.a == 1 && value.b == 2 && value.tuple.0 == 9)
    }

    @Test("A class's thin property after the object header reads as its value, not the header")
    func classProperty() throws {
        let object = ThinMetatypeObject()
        let fields = try TypeMetadata(ThinMetatypeObject.self).fields
        #expect(fields.first?.storedSize == 0)
        #expect(try fields[0].value(in: object, as: String.Type.self) == String.self)
        #expect(try fields[1].value(in: object, as: Int.self) == 5)
        var root: ThinMetatypeObject = object
        try fields[0].setValue(String.self, in: &root)
        try fields[1].setValue(6, in: &root)
        #expect(object.count == 6 && object.kind == String.self)
    }

    @Test("RuntimeMirror and the walker read every shape (child processes)")
    func mirrorsInChildProcesses() async {
        await #expect(processExitsWith: .success) {
            let holder = ThinMetatypeHolder()
            let ours = RuntimeMirror(reflecting: holder).children.map { "\($0.label ?? ""): \($0.value)" }
            let theirs = Mirror(reflecting: holder).children.map { "\($0.label ?? ""): \($0.value)" }
            #expect(ours == ["a: 1", "t: Int", "b: 2"])
            #expect(ours == theirs)
            let object = ThinMetatypeObject()
            #expect(
                RuntimeMirror(reflecting: object).children.map { "\($0.value)" }
                    == Mirror(reflecting: object).children.map { "\($0.value)" }
            )
            // Mirror crashes on these; the properties read in code are the oracle.
            let forms = StoredForms()
            let expected = directTexts(forms)
            for child in RuntimeMirror(reflecting: forms).children {
                #expect(String(reflecting: child.value) == expected[child.label ?? ""], "\(child.label ?? "")")
            }
            let node = ValueWalker().node(for: forms)
            #expect(node.childCount == expected.count)
            for index in 0..<node.childCount {
                let label = node.label(ofChildAt: index) ?? ""
                #expect(String(reflecting: node.child(at: index)?.value as Any) == "Optional(\(expected[label] ?? ""))")
            }
            #expect(String(reflecting: node.child(at: 1, as: Int.Type?.self)) == "Optional(Optional(Swift.Int))")
        }
    }

    @Test("Enum payloads declared with thin metatypes read, build and walk")
    func payloads() async throws {
        let type = TypeMetadata(ThinPayload.self)
        #expect(try type.payload(of: ThinPayload.metatype(Int.self), as: Int.Type.self) == Int.self)
        let pair = try #require(try type.payload(of: ThinPayload.pair(Int.self, 7), as: (Int.Type, Int).self))
        #expect(pair.0 == Int.self && pair.1 == 7)
        #expect(try type.payload(of: ThinPayload.labelled(kind: String.self), as: String.Type.self) == String.self)
        let reference = try type.payload(
            of: ThinPayload.reference(StoredFormSubclass.self),
            as: StoredFormBase.Type.self
        )
        #expect(reference == StoredFormSubclass.self)
        let boxed = try #require(
            try type.payload(of: ThinPayload.boxed(Int.self, "in a box"), as: (Int.Type, String).self)
        )
        #expect(boxed.1 == "in a box")
        let made: ThinPayload = try type.makeValue(case: "pair", payload: (Int.self, 9))
        guard case .pair(let kind, let count) = made else { Issue.record("not .pair: \(made)"); return }
        #expect(kind == Int.self && count == 9)
        let madeBox: ThinPayload = try type.makeValue(case: "boxed", payload: (Int.self, "made"))
        guard case .boxed(_, let text) = madeBox else { Issue.record("not .boxed: \(madeBox)"); return }
        #expect(text == "made")
        let generic = try TypeMetadata(GenericPayload<Int>.self).payload(
            of: GenericPayload<Int>.mixed(5, Int.self),
            as: (Int, Int.Type).self
        )
        #expect(generic?.0 == 5)
        await #expect(processExitsWith: .success) {
            let values: [ThinPayload] = [
                .metatype(Int.self), .pair(Int.self, 7), .labelled(kind: String.self), .boxed(Int.self, "b"),
            ]
            let texts = values.map { value in
                RuntimeMirror(reflecting: value).children.map { String(reflecting: $0.value) }
            }
            #expect(texts == [["Swift.Int"], ["(Swift.Int, 7)"], ["(kind: Swift.String)"], ["(Swift.Int, \"b\")"]])
        }
    }

    @Test("Layout equality compares what is stored, and instances are made in the stored form")
    func equalityAndInstances() throws {
        #expect(TypeMetadata.layoutEquals(ThinMetatypeHolder(), ThinMetatypeHolder()))
        #expect(!TypeMetadata.layoutEquals(ThinMetatypeHolder(), ThinMetatypeHolder(b: 3)))
        var changed = StoredForms()
        #expect(TypeMetadata.layoutEquals(StoredForms(), changed))
        changed.tuple.0 = 8
        #expect(!TypeMetadata.layoutEquals(StoredForms(), changed))
        changed = StoredForms()
        changed.optional = nil
        #expect(!TypeMetadata.layoutEquals(StoredForms(), changed))
        #expect(TypeMetadata.layoutEquals(ThinPayload.pair(Int.self, 1), ThinPayload.pair(Int.self, 1)))
        #expect(!TypeMetadata.layoutEquals(ThinPayload.pair(Int.self, 1), ThinPayload.pair(Int.self, 2)))

        let holder = try TypeMetadata(ThinMetatypeHolder.self).makeInstance(
            ["a": 5, "t": Int.self, "b": 6],
            as: ThinMetatypeHolder.self
        )
        #expect(holder == ThinMetatypeHolder(a: 5, b: 6))
        let fields = try TypeMetadata(StoredForms.self).fields
        var source = StoredForms()
        source.tuple = (3, Int.self)
        source.optional = nil
        let values = try fields.map { try $0.value(in: source) }
        let made = try TypeMetadata(StoredForms.self).makeInstance(orderedValues: values)
        let madeForms = try #require(made as? StoredForms)
        #expect(directTexts(madeForms) == directTexts(source))
    }

    @Test("A metatype of an associated type is thick; one inside a tuple of it is refused, not guessed")
    func associatedTypes() throws {
        let value = AssociatedStoredForms<[Int]>()
        let field = try TypeMetadata(AssociatedStoredForms<[Int]>.self).field(named: "element")
        #expect(field.storedSize == 8)
        #expect(try field.value(in: value, as: Int.Type.self) == Int.self)
        #expect(
            RuntimeMirror(reflecting: value).children.map { "\($0.value)" }
                == Mirror(reflecting: value).children.map { "\($0.value)" }
        )
        let pair = try TypeMetadata(AssociatedTuple<[Int]>.self).field(named: "pair")
        #expect(pair.storedSize == nil)
        #expect {
            try pair.value(in: AssociatedTuple<[Int]>())
        } throws: { error in
            guard case .unknownStorage(let typeName, _)? = error as? RuntimeMetadataError else { return false }
            return typeName == "(Swift.Int.Type, Swift.Int)"
        }
    }
}
