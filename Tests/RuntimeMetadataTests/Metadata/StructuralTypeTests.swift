// StructuralTypeTests.swift
//
// Tuples, functions, existentials, metatypes and generic arguments.

import Fixtures
import ResilientFixtures
import RuntimeMetadata
import Testing

/// `PackStruct` with an empty pack, spelled through a generic function.
private func emptyPackStruct<each T>(_ types: repeat (each T).Type) -> TypeMetadata {
    TypeMetadata(PackStruct<repeat each T>.self)
}

@Suite("Structural types")
struct StructuralTypeTests {
    @Test("Tuple offsets equal MemoryLayout.offset(of:) and labels equal Mirror's")
    func tuples() throws {
        typealias Mixed = (Int8, label: Double, Int16, String)
        let metadata = TypeMetadata(Mixed.self)
        #expect(metadata.kind == .tuple)
        let elements = metadata.tupleElements
        #expect(
            elements.map(\.offset) == [
                MemoryLayout<Mixed>.offset(of: \.0), MemoryLayout<Mixed>.offset(of: \.1),
                MemoryLayout<Mixed>.offset(of: \.2), MemoryLayout<Mixed>.offset(of: \.3),
            ]
        )
        let sample: Mixed = (1, label: 2, 3, "four")
        #expect(elements.map(\.name) == Mirror(reflecting: sample).children.map { $0.label ?? "" })
        #expect(elements.map(\.type) == [Int8.self, Double.self, Int16.self, String.self].map(TypeMetadata.init))
        #expect(elements[1].label == "label")
        #expect(elements[0].label == nil)
        #expect(TypeMetadata(Void.self).tupleElements.isEmpty)
    }

    @Test("Tuple elements read from a tuple, an Any holding one, and generic code equal Mirror's values")
    func tupleElementValues() throws {
        final class Box { let number = 5 }
        let box = Box()
        typealias Mixed = (Int8, label: String, Box, MultiPayloadEnum, (Int) -> Int, Any)
        let sample: Mixed = (1, label: "two", box, .pair(3, 4.5), { $0 * 2 }, 6.5)
        let elements = TypeMetadata(Mixed.self).tupleElements
        #expect(try elements[0].value(in: sample, as: Int8.self) == 1)
        #expect(try elements[1].value(in: sample, as: String.self) == "two")
        #expect(try elements[2].value(in: sample, as: Box.self) === box)
        #expect(try elements[3].value(in: sample, as: MultiPayloadEnum.self) == .pair(3, 4.5))
        #expect(try elements[4].value(in: sample, as: ((Int) -> Int).self)(21) == 42)
        #expect(try elements[5].value(in: sample, as: Double.self) == 6.5)
        // As Any, from the tuple and from an Any holding it, against Mirror's children.
        let boxed: Any = sample
        let mirrored = Mirror(reflecting: sample).children.map { String(reflecting: $0.value) }
        // Swift opens an Any passed straight to a generic parameter (SE-0352): `pinned` keeps the
        // root an Any, as generic code with Root == Any has it.
        func pinned<Root>(_ element: TupleElement, _ root: Root, as _: Root.Type) throws -> Any {
            try element.value(in: root)
        }
        let direct = try elements.map { String(reflecting: try $0.value(in: sample)) }
        let throughAny = try elements.map { String(reflecting: try pinned($0, boxed, as: Any.self)) }
        for read in [direct, throughAny] {
            // The closure's description names no identity; everything else must match exactly.
            #expect(read.indices.allSatisfy { $0 == 4 || read[$0] == mirrored[$0] }, "\(read) vs \(mirrored)")
        }
        #expect(try (pinned(elements[4], boxed, as: Any.self) as? (Int) -> Int)?(5) == 10)
        // From generic code, where the tuple's static type is a type parameter.
        func count<T>(in tuple: T, at index: Int) throws -> Any {
            try TypeMetadata(T.self).tupleElements[index].value(in: tuple)
        }
        #expect(try count(in: (name: "x", count: 3), at: 1) as? Int == 3)
        #expect(try count(in: sample, at: 2) as? Box === box)
    }

    @Test("Tuple element reads of the wrong root or type throw, naming both")
    func tupleElementMismatches() throws {
        let pair = (1, "one")
        let element = TypeMetadata(type(of: pair)).tupleElements[0]
        do {
            _ = try element.value(in: (1, 2), as: Int.self)
            Issue.record("a root of another tuple type was read")
        } catch .typeMismatch(let expected, let actual, let context) {
            #expect(expected == "(Swift.Int, Swift.String)")
            #expect(actual == "(Swift.Int, Swift.Int)")
            #expect(context.contains("tuple element '.0'"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(throws: RuntimeMetadataError.self) { try element.value(in: pair, as: String.self) }
        #expect(try element.value(in: pair, as: Int?.self) == 1)
        func pinned<Root>(_ root: Root, as _: Root.Type) throws(RuntimeMetadataError) -> Int {
            try element.value(in: root, as: Int.self)
        }
        #expect(try pinned(pair as Any, as: Any.self) == 1)
        #expect(throws: RuntimeMetadataError.self) { try pinned((1, 2) as Any, as: Any.self) }
    }

    @Test("Function parameters, effects and conventions")
    func functions() throws {
        typealias Throwing = (Int, inout String) throws -> Double
        let throwing = try #require(TypeMetadata(Throwing.self).function)
        #expect(throwing.parameters.map(\.type) == [TypeMetadata(Int.self), TypeMetadata(String.self)])
        #expect(throwing.parameters.map(\.ownership) == [.default, .inout])
        #expect(throwing.result == TypeMetadata(Double.self))
        #expect(throwing.isThrowing && !throwing.isAsync && throwing.isEscaping)
        #expect(throwing.convention == .swift)

        let asyncSendable = try #require(TypeMetadata((@Sendable () async -> Void).self).function)
        #expect(asyncSendable.isAsync && asyncSendable.isSendable && !asyncSendable.isThrowing)
        #expect(asyncSendable.result == TypeMetadata(Void.self))

        let cFunction = try #require(TypeMetadata((@convention(c) (Int32) -> Int32).self).function)
        #expect(cFunction.convention == .c)
        #expect(!cFunction.isEscaping)

        typealias Typed = (Int) throws(FixtureError) -> Void
        let typed = try #require(TypeMetadata(Typed.self).function)
        #expect(typed.thrownError == TypeMetadata(FixtureError.self))

        typealias MainActorFunction = @MainActor (inout Int) throws(FixtureError) -> Void
        let isolated = try #require(TypeMetadata(MainActorFunction.self).function)
        #expect(isolated.isolation == .globalActor(TypeMetadata(MainActor.self)))
        #expect(isolated.thrownError == TypeMetadata(FixtureError.self))
        #expect(isolated.parameters.map(\.ownership) == [.inout])

        typealias Variadic = (Int...) -> Void
        #expect(TypeMetadata(Variadic.self).function?.parameters.first?.isVariadic == true)
        typealias Auto = (@autoclosure () -> Int) -> Void
        #expect(TypeMetadata(Auto.self).function?.parameters.first?.isAutoclosure == true)
        typealias IsolatedParameter = (isolated (any Actor)?, Int) -> Void
        let isolatedParameter = try #require(TypeMetadata(IsolatedParameter.self).function)
        #expect(isolatedParameter.parameters.first?.isIsolated == true)
        #expect(isolatedParameter.isolation == .isolatedParameter)
        typealias IsolatedAny = @isolated(any) () -> Void
        #expect(TypeMetadata(IsolatedAny.self).function?.isolation == .isolatedAny)
        #expect(TypeMetadata(Int.self).function == nil)
    }

    @Test("Existential constraints and container sizes")
    func existentials() throws {
        let plain = try #require(TypeMetadata((any FixtureProtocol).self).existential)
        #expect(plain.protocolNames == ["Fixtures.FixtureProtocol"])
        #expect(!plain.isClassBound && plain.witnessTableCount == 1 && plain.superclass == nil)

        let classBound = try #require(TypeMetadata((any ClassBoundProtocol).self).existential)
        #expect(classBound.isClassBound)

        let composed = try #require(TypeMetadata((any FixtureProtocol & ClassBoundProtocol).self).existential)
        #expect(Set(composed.protocolNames) == ["Fixtures.FixtureProtocol", "Fixtures.ClassBoundProtocol"])
        #expect(composed.isClassBound && composed.witnessTableCount == 2)

        let withSuperclass = try #require(TypeMetadata((any BaseClass & FixtureProtocol).self).existential)
        #expect(withSuperclass.superclass == TypeMetadata(BaseClass.self))
        #expect(withSuperclass.isClassBound)

        let any = try #require(TypeMetadata(Any.self).existential)
        #expect(any.protocolNames.isEmpty && !any.isClassBound)
        #expect(try #require(TypeMetadata(AnyObject.self).existential).isClassBound)
        #expect(try #require(TypeMetadata((any Error).self).existential).isError)
        #expect(TypeMetadata((any Hashable).self).existential?.protocolNames == ["Swift.Hashable"])
        #expect(TypeMetadata((any Sequence<Int>).self).kind == .extendedExistential)

        // Container sizes against MemoryLayout.
        #expect(TypeMetadata((any FixtureProtocol).self).size == MemoryLayout<any FixtureProtocol>.size)
        #expect(TypeMetadata((any ClassBoundProtocol).self).size == MemoryLayout<any ClassBoundProtocol>.size)
        #expect(TypeMetadata((any Error).self).size == MemoryLayout<any Error>.size)
    }

    @Test("Metatypes and their instance types")
    func metatypes() {
        #expect(TypeMetadata(Int.Type.self).kind == .metatype)
        #expect(TypeMetadata(Int.Type.self).instanceType == TypeMetadata(Int.self))
        #expect(TypeMetadata((any FixtureProtocol.Type).self).kind == .existentialMetatype)
        #expect(TypeMetadata((any FixtureProtocol.Type).self).instanceType == TypeMetadata((any FixtureProtocol).self))
        #expect(TypeMetadata((any FixtureProtocol).Type.self).kind == .metatype)
        #expect(TypeMetadata(Int.self).instanceType == nil)
    }

    @Test("Generic arguments of structs, enums, classes and nested types")
    func genericArguments() throws {
        #expect(
            TypeMetadata([String: [Int]].self).genericArguments == [
                .type(TypeMetadata(String.self)), .type(TypeMetadata([Int].self)),
            ]
        )
        #expect(TypeMetadata(GenericEnum<Point>.self).genericArguments == [.type(TypeMetadata(Point.self))])
        #expect(TypeMetadata(GenericBaseClass<String>.self).genericArguments == [.type(TypeMetadata(String.self))])
        #expect(TypeMetadata(DoubleGenericSubclass<Int8>.self).genericArguments == [.type(TypeMetadata(Int8.self))])
        #expect(TypeMetadata(GenericSubclass.self).genericArguments.isEmpty)
        #expect(TypeMetadata(GenericSubclass.self).superclass == TypeMetadata(GenericBaseClass<Int>.self))
        #expect(
            TypeMetadata(GenericOuter<Int>.Inner<String>.self).genericArguments == [
                .type(TypeMetadata(Int.self)), .type(TypeMetadata(String.self)),
            ]
        )
        #expect(TypeMetadata(Int.self).genericArguments.isEmpty)
        #expect(TypeMetadata(ConstrainedBox<String>.self).genericArguments == [.type(TypeMetadata(String.self))])
    }

    @Test("Integer generic parameters and parameter packs")
    func valuesAndPacks() throws {
        #expect(
            TypeMetadata(ValueGenericStruct<3, Int16>.self).genericArguments == [
                .value(3), .type(TypeMetadata(Int16.self)),
            ]
        )
        #expect(
            TypeMetadata(InlineArray<5, UInt8>.self).genericArguments == [.value(5), .type(TypeMetadata(UInt8.self))]
        )
        #expect(
            TypeMetadata(PackStruct<Int, String, Bool>.self).genericArguments == [
                .pack([TypeMetadata(Int.self), TypeMetadata(String.self), TypeMetadata(Bool.self)])
            ]
        )
        #expect(emptyPackStruct().genericArguments == [.pack([])])
        let descriptor = try #require(TypeMetadata(ValueGenericStruct<3, Int16>.self).descriptor)
        #expect(descriptor.genericParameters.map(\.kind) == [.value("Swift.Int"), .type])
        #expect(TypeMetadata(PackStruct<Int>.self).descriptor?.genericParameters.map(\.kind) == [.pack])
        // The storage of InlineArray is a builtin fixed array.
        let storage = try #require(try TypeMetadata(InlineArray<4, UInt8>.self).fields.first?.type)
        #expect(storage.kind == .fixedArray)
        #expect(storage.fixedArray?.count == 4)
        #expect(storage.fixedArray?.element == TypeMetadata(UInt8.self))
    }

    @Test("Descriptors: names, modules, parents, requirements")
    func descriptors() throws {
        let inner = try #require(TypeMetadata(Namespace.NestedStruct.DeeperStruct.self).descriptor)
        #expect(inner.name == "DeeperStruct")
        #expect(inner.qualifiedName == "Fixtures.Namespace.NestedStruct.DeeperStruct")
        #expect(inner.moduleName == "Fixtures")
        #expect(inner.parents.map(\.name) == ["NestedStruct", "Namespace", "Fixtures"])
        #expect(inner.parents.map(\.kind) == [.struct, .enum, .module])
        #expect(inner.kind == .struct && !inner.isGeneric)
        #expect(TypeMetadata(Point.self).moduleName == "Fixtures")
        #expect(TypeMetadata(Int.self).moduleName == "Swift")
        #expect(TypeMetadata((Int, Int).self).descriptor == nil)

        let constrained = try #require(TypeMetadata(ConstrainedBox<Int>.self).descriptor)
        #expect(constrained.isGeneric)
        let requirement = try #require(constrained.genericRequirements.first)
        #expect(requirement.kind == .conformance && requirement.protocolName == "Swift.Hashable")
        #expect(requirement.hasKeyArgument)

        let extensionNested = try #require(TypeMetadata(Int.IntExtensionNested.self).descriptor)
        #expect(extensionNested.parents.first?.kind == .extension)
        #expect(TypeMetadata(privateFixtureType).descriptor?.parents.first?.kind == .anonymous)
        #expect(TypeMetadata(CounterActor.self).descriptor?.kind == .class)
        // TypeContextDescriptorFlags bit 13 (include/swift/ABI/MetadataValues.h): the subclass
        // of a class from a module built with library evolution has a resilient superclass.
        let resilientFlag: UInt16 = 1 << 13
        #expect(
            TypeMetadata(ResilientSubclass.self).descriptor.map { $0.kindSpecificFlags & resilientFlag }
                == resilientFlag
        )
        #expect(TypeMetadata(GenericSubclass.self).descriptor.map { $0.kindSpecificFlags & resilientFlag } == 0)
        #expect(TypeMetadata(ResilientGenericSubclass<Int8>.self).genericArguments == [.type(TypeMetadata(Int8.self))])
    }

    @Test("Copyability from value witnesses and descriptors, generic instantiations included")
    func copyability() {
        #expect(!TypeMetadata(of: NoncopyableStruct.self).isCopyable)
        #expect(TypeMetadata(of: NoncopyableStruct.self).type == nil)
        #expect(!TypeMetadata(of: NoncopyableEnum.self).isCopyable)
        #expect(!TypeMetadata(of: ConditionallyCopyable<NoncopyableStruct>.self).isCopyable)
        #expect(TypeMetadata(ConditionallyCopyable<Int>.self).isCopyable)
        #expect(TypeMetadata(of: ConditionallyCopyable<NoncopyableStruct>.self).descriptor?.suppressesCopyable == true)
        #expect(TypeMetadata(Point.self).isCopyable)
        #expect(TypeMetadata(of: NoncopyableStruct.self).size == MemoryLayout<NoncopyableStruct>.size)
        #expect(TypeMetadata(of: NoncopyableStruct.self).name == "Fixtures.NoncopyableStruct")
    }

    @Test("Noncopyable stored properties: names and offsets kept, types hidden by the compiler")
    func noncopyableFields() throws {
        let fields = try TypeMetadata(of: HoldsNoncopyable.self).fields
        #expect(fields.map(\.name) == ["inner", "count"])
        #expect(fields[0].isTypeHidden && fields[0].type == nil)
        #expect(fields[1].type == TypeMetadata(Int.self))
        #expect(fields[1].offset == MemoryLayout<NoncopyableStruct>.stride)
        #expect(try TypeMetadata(of: NoncopyableEnum.self).cases.map(\.name) == ["a", "b"])
    }

    @Test("Ownership of weak, unowned and unowned(unsafe) properties")
    func ownership() throws {
        let fields = try TypeMetadata(OwnershipStruct.self).fields
        #expect(fields.map(\.ownership) == [.weak, .unowned, .unownedUnsafe, .strong])
        #expect(fields[0].type == TypeMetadata(ReferenceFixture?.self))
        #expect(fields[1].type == TypeMetadata(ReferenceFixture.self))
        let tree = try TypeMetadata(TreeNode.self).fields
        #expect(tree.map(\.ownership) == [.strong, .weak, .strong, .unownedUnsafe])
    }

    @Test("var and let")
    func mutability() throws {
        #expect(try TypeMetadata(LetVarStruct.self).fields.map(\.isVar) == [false, true])
        #expect(try TypeMetadata(BaseClass.self).fields.map(\.isVar) == [true, false])
    }

    @Test("Unknown kinds print as unknown and are rejected by validateKind")
    func kindDescriptions() throws {
        #expect(TypeMetadata.Kind.struct.description == "struct")
        #expect(TypeMetadata.Kind.foreignClass.description == "foreignClass")
        #expect(TypeMetadata(Point.self).kind.isKnown)
        try TypeMetadata(Point.self).validateKind()
    }
}
