// ClassLayoutTests.swift
//
// The facts of Swift class metadata against the layout include/swift/ABI/Metadata.h gives them,
// MemoryLayout, and the metadata words themselves read through the metatype's address.

import Fixtures
import RuntimeMetadata
import Testing

/// A root class with two stored properties and no overridable members.
private final class PlainClass {
    var small: Int8 = 1
    var large: Int = 2
}

/// The same with one stored property more.
private final class PlainClassOfThree {
    var small: Int8 = 1
    var large: Int = 2
    var third: Int16 = 3
}

/// A root generic class: its generic argument is its first member.
private final class GenericRoot<T> {
    var value: T
    init(_ value: T) { self.value = value }
}

/// The metadata word at a word offset from a class's address point, as a metadata address.
private func word(of type: AnyClass, at offset: Int) -> UnsafeRawPointer {
    let address = unsafeBitCast(type, to: UnsafeRawPointer.self)
    return address.load(fromByteOffset: offset * MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
}

/// The address of a type's metadata.
private func metadataAddress(_ type: Any.Type) -> UnsafeRawPointer { unsafeBitCast(type, to: UnsafeRawPointer.self) }

@Suite("Class layout")
struct ClassLayoutTests {
    /// Words of `TargetClassMetadata` after the address point without Objective-C interop: kind,
    /// superclass, flags and instance address point, instance size and alignment, class size and
    /// address point, description, ivar destroyer.
    static let headerWords = 7
    /// Words before the address point (`TargetHeapMetadataHeader`): the layout string, the
    /// destroy function and the value witness table.
    static let prefixWords = 3

    @Test("A root final class: sizes and address points as Metadata.h lays them out")
    func plainClass() throws {
        let layout = try #require(TypeMetadata(PlainClass.self).classLayout)
        let word = MemoryLayout<UInt>.size
        #expect(layout.addressPoint == Self.prefixWords * word)
        // Its members follow the header, among them the field offset vector: one word per
        // stored property, so a third property adds exactly one word.
        #expect(layout.size >= (Self.prefixWords + Self.headerWords + 2) * word)
        #expect(layout.size % word == 0)
        let three = try #require(TypeMetadata(PlainClassOfThree.self).classLayout)
        #expect(three.size == layout.size + word)
        #expect(three.instanceSize == layout.instanceSize + MemoryLayout<Int16>.size)
        // The heap header (isa and reference counts), then the fields at their alignment.
        #expect(layout.instanceSize == 2 * word + MemoryLayout<Int8>.stride + 7 + MemoryLayout<Int>.size)
        #expect(layout.instanceAlignment == MemoryLayout<Int>.alignment)
        #expect(layout.instanceAddressPoint == 0)
        #expect(layout.flags.contains(.usesSwiftRefcounting))
        #expect(!layout.flags.contains(.isSwiftPreStableABI))
        #expect(layout.isSwiftClass)
        #expect(layout.genericArgumentOffset == nil)
        #if !_runtime(_ObjC)
        #expect(layout.isa == 0)
        #endif
        #expect(layout.instanceSize == TypeMetadata(PlainClass.self).instanceSize)
    }

    @Test("Generic argument offsets point at the arguments' metadata, in subclasses too")
    func genericArgumentOffsets() throws {
        let root = try #require(TypeMetadata(GenericRoot<Int>.self).classLayout)
        #expect(root.genericArgumentOffset == Self.headerWords)
        #expect(
            word(of: GenericRoot<Int>.self, at: try #require(root.genericArgumentOffset)) == metadataAddress(Int.self)
        )

        let subclass = try #require(TypeMetadata(GenericBaseClass<String>.self).classLayout)
        let subclassOffset = try #require(subclass.genericArgumentOffset)
        // BaseClass's members (its vtable and field offsets) come first.
        #expect(subclassOffset > Self.headerWords)
        #expect(word(of: GenericBaseClass<String>.self, at: subclassOffset) == metadataAddress(String.self))

        let nested = try #require(TypeMetadata(DoubleGenericSubclass<Double>.self).classLayout)
        let nestedOffset = try #require(nested.genericArgumentOffset)
        #expect(nestedOffset > subclassOffset)
        #expect(word(of: DoubleGenericSubclass<Double>.self, at: nestedOffset) == metadataAddress(Double.self))
        // The superclass's argument, [Double], sits at the superclass's offset in the same metadata.
        #expect(word(of: DoubleGenericSubclass<Double>.self, at: subclassOffset) == metadataAddress([Double].self))
        // Every member lies inside the metadata object.
        for layout in [root, subclass, nested] {
            let end = layout.addressPoint + (try #require(layout.genericArgumentOffset) + 1) * MemoryLayout<UInt>.size
            #expect(end <= layout.size)
        }
    }

    @Test("Non-generic subclasses, and kinds that are not classes")
    func otherKinds() throws {
        let derived = try #require(TypeMetadata(DerivedClass.self).classLayout)
        #expect(derived.genericArgumentOffset == nil)
        #expect(derived.instanceSize == TypeMetadata(DerivedClass.self).instanceSize)
        let base = try #require(TypeMetadata(BaseClass.self).classLayout)
        // The subclass's metadata holds the superclass's members and its own.
        #expect(derived.size > base.size)
        #expect(derived.addressPoint == base.addressPoint)
        #expect(TypeMetadata(Int.self).classLayout == nil)
        #expect(TypeMetadata(MultiPayloadEnum.self).classLayout == nil)
        #expect(TypeMetadata((any FixtureProtocol).self).classLayout == nil)
    }
}

/// A struct whose fields have gaps, and a generic one whose vector follows its argument.
private struct Gapped {
    var small: Int8 = 1
    var large: Int = 2
    var middle: Int16 = 3
}

private struct GenericGapped<T> {
    var value: T
    var large: Int = 2
}

private enum NoPayload { case a, b, c }

/// A class whose stored properties are reached through `withUnsafeMutablePointer`.
private final class Slots {
    var small: Int8 = 1
    var large: Int = 2
}

@Suite("Descriptor facts")
struct DescriptorFactTests {
    /// The 32-bit field offsets a struct's metadata stores at a word offset.
    private func structOffsets(of type: Any.Type, at wordOffset: Int, count: Int) -> [Int] {
        let base = unsafeBitCast(type, to: UnsafeRawPointer.self) + wordOffset * MemoryLayout<UInt>.size
        return (0..<count).map { Int(base.load(fromByteOffset: $0 * 4, as: UInt32.self)) }
    }

    @Test("A struct's field offset vector holds MemoryLayout's offsets")
    func structVector() throws {
        let offset = try #require(TypeMetadata(Gapped.self).descriptor?.fieldOffsetVectorOffset)
        #expect(
            structOffsets(of: Gapped.self, at: offset, count: 3) == [
                MemoryLayout<Gapped>.offset(of: \.small), MemoryLayout<Gapped>.offset(of: \.large),
                MemoryLayout<Gapped>.offset(of: \.middle),
            ]
        )
        let generic = try #require(TypeMetadata(GenericGapped<Int8>.self).descriptor?.fieldOffsetVectorOffset)
        // After the kind, the descriptor and the one generic argument.
        #expect(generic == offset + 1)
        #expect(
            structOffsets(of: GenericGapped<Int8>.self, at: generic, count: 2) == [
                MemoryLayout<GenericGapped<Int8>>.offset(of: \.value),
                MemoryLayout<GenericGapped<Int8>>.offset(of: \.large),
            ]
        )
    }

    @Test("A class's field offset vector holds the stored properties' distances from the object")
    func classVector() throws {
        let offset = try #require(TypeMetadata(Slots.self).descriptor?.fieldOffsetVectorOffset)
        let object = Slots()
        let objectAddress = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        let small = withUnsafeMutablePointer(to: &object.small) { UInt(bitPattern: $0) } - objectAddress
        let large = withUnsafeMutablePointer(to: &object.large) { UInt(bitPattern: $0) } - objectAddress
        let base = unsafeBitCast(Slots.self, to: UnsafeRawPointer.self) + offset * MemoryLayout<UInt>.size
        #expect(base.load(as: UInt.self) == small)
        #expect(base.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) == large)
        #expect(TypeMetadata(MultiPayloadEnum.self).descriptor?.fieldOffsetVectorOffset == nil)
    }

    @Test("Enum payload kinds and case counts follow the declarations")
    func enumKinds() throws {
        let multi = try #require(TypeMetadata(MultiPayloadEnum.self).descriptor)
        #expect(multi.enumPayloadKind == .multiPayload)
        #expect(multi.payloadCaseCount == 3)  // int, string, pair
        #expect(multi.emptyCaseCount == 2)  // empty, another
        let optional = try #require(TypeMetadata(Optional<Int>.self).descriptor)
        #expect(optional.enumPayloadKind == .singlePayload)
        #expect(optional.payloadCaseCount == 1 && optional.emptyCaseCount == 1)
        let plain = try #require(TypeMetadata(NoPayload.self).descriptor)
        #expect(plain.enumPayloadKind == .noPayload)
        #expect(plain.payloadCaseCount == 0 && plain.emptyCaseCount == 3)
        #expect(TypeMetadata(Gapped.self).descriptor?.enumPayloadKind == nil)
    }
}

/// A protocol whose requirement signature has a conformance on Self, one on an associated type,
/// and a same-type requirement.
private protocol SignatureFixture: Hashable {
    associatedtype Element: Equatable
    associatedtype Storage where Storage == [Element]
}

@Suite("Requirement signatures")
struct RequirementSignatureTests {
    @Test("Each protocol's requirement signature is what its declaration states")
    func signatures() throws {
        let fixture = try ProtocolDescriptor((any SignatureFixture).self)
        let signature = fixture.requirementSignature
        #expect(signature.count == 3, "\(signature)")
        let conformances = signature.filter { $0.kind == .conformance }
        #expect(Set(conformances.compactMap(\.protocolName)) == ["Swift.Hashable", "Swift.Equatable"])
        // Self: Hashable is on the protocol's own parameter; Element: Equatable on an associated type.
        #expect(conformances.first { $0.protocolName == "Swift.Hashable" }?.subjectMangledName == "x")
        #expect(conformances.first { $0.protocolName == "Swift.Equatable" }?.subjectMangledName != "x")
        let sameType = try #require(signature.first { $0.kind == .sameType })
        #expect(sameType.typeMangledName != nil)

        let inheriting = try ProtocolDescriptor((any InheritingProtocol).self).requirementSignature
        #expect(inheriting.allSatisfy { $0.kind == .conformance && $0.subjectMangledName == "x" })
        #expect(Set(inheriting.compactMap(\.protocolName)) == ["Fixtures.FixtureProtocol", "Swift.Equatable"])
        let container = try ProtocolDescriptor((any ContainerProtocol).self).requirementSignature
        #expect(container.map(\.protocolName) == ["Swift.Comparable"])
        #expect(try ProtocolDescriptor((any FixtureProtocol).self).requirementSignature.isEmpty)
        // The signature's conformances on Self are the inherited protocols.
        for descriptor in [fixture, try ProtocolDescriptor((any Hashable).self)] {
            let onSelf = descriptor.requirementSignature.filter {
                $0.kind == .conformance && $0.subjectMangledName == "x"
            }
            #expect(onSelf.compactMap(\.protocolName) == descriptor.inheritedProtocols.map(\.qualifiedName))
        }
    }
}

/// Two parameters, one conformance requirement: three key arguments.
private struct KeyArguments<T: Hashable, U> {
    var first: T
    var second: U
}

@Suite("Generic context sizes")
struct GenericContextSizeTests {
    @Test("Parameter, requirement and key-argument counts follow the declarations")
    func sizes() throws {
        let sizes = try #require(TypeMetadata(KeyArguments<Int, String>.self).descriptor?.genericContext)
        #expect(sizes.parameterCount == 2)
        #expect(sizes.requirementCount == 1)
        // T, U, and the witness table of T: Hashable.
        #expect(sizes.keyArgumentCount == 3)
        #expect(!sizes.hasTypePacks && !sizes.hasValues && !sizes.hasConditionalInvertedProtocols)
        let dictionary = try #require(TypeMetadata([String: Int].self).descriptor?.genericContext)
        #expect(dictionary.parameterCount == 2 && dictionary.requirementCount == 1 && dictionary.keyArgumentCount == 3)
        let pack = try #require(TypeMetadata(PackStruct<Int, String>.self).descriptor?.genericContext)
        #expect(pack.hasTypePacks)
        let inline = try #require(TypeMetadata(InlineArray<3, Int>.self).descriptor?.genericContext)
        #expect(inline.hasValues && inline.parameterCount == 2)
        #expect(TypeMetadata(Int.self).descriptor?.genericContext == nil)
        // The counts agree with the descriptor's own parameter and requirement lists.
        let descriptor = try #require(TypeMetadata(KeyArguments<Int, String>.self).descriptor)
        #expect(descriptor.genericParameters.count == sizes.parameterCount)
        #expect(descriptor.genericRequirements.count == sizes.requirementCount)
    }
}

/// A generic struct whose layout depends on its argument.
private struct DependentLayout<T> {
    var count: Int
    var value: T
}

/// A generic enum.
private enum GenericChoice<T> {
    case some(T)
    case none
}

/// A private type, in this file's anonymous context.
private struct PrivateMarker {}

@Suite("Metadata patterns and anonymous contexts")
struct MetadataPatternTests {
    @Test("A generic type's pattern flags name the kind its metadata takes")
    func valueKinds() throws {
        let cases: [(pattern: Any.Type, instance: Any.Type)] = [
            (DependentLayout<Int>.self, DependentLayout<String>.self),
            (GenericChoice<Int>.self, GenericChoice<[Int]>.self),
            (Int?.self, String?.self),
            ([Int].self, [String].self),
            (KeyArguments<Int, String>.self, KeyArguments<Int, Int>.self),
        ]
        for (patternType, instanceType) in cases {
            let pattern = try #require(TypeMetadata(patternType).descriptor?.metadataPattern)
            // The oracle: the kind word of an instantiation of the same descriptor.
            #expect(pattern.valueMetadataKind == TypeMetadata(instanceType).kind, "\(patternType)")
            #expect(!pattern.hasImmediateMembersPattern)
        }
        // A layout that depends on the argument is computed when the metadata is completed.
        #expect(TypeMetadata(DependentLayout<Int>.self).descriptor?.metadataPattern?.hasCompletionFunction == true)
        let classPattern = try #require(TypeMetadata(GenericRoot<Int>.self).descriptor?.metadataPattern)
        #expect(classPattern.valueMetadataKind == nil)
        #expect(classPattern.hasCompletionFunction)
        // Non-generic types have no pattern.
        #expect(TypeMetadata(Int.self).descriptor?.metadataPattern == nil)
        #expect(TypeMetadata(PlainClass.self).descriptor?.metadataPattern == nil)
    }

    @Test(
        "A private type's anonymous context: the type's mangled name with its file's discriminator where the compiler emits one, none in optimized builds"
    )
    func anonymousContext() throws {
        func anonymousName(_ type: Any.Type) throws -> String? {
            let descriptor = try #require(TypeMetadata(type).descriptor)
            let anonymous = try #require(descriptor.parents.first { $0.kind == .anonymous })
            // Other contexts have none.
            #expect(descriptor.parents.filter { $0.kind != .anonymous }.allSatisfy { $0.mangledName == nil })
            return anonymous.mangledName
        }
        #if !DEBUG
        // The driver passes `-enable-anonymous-context-mangled-names` only with `-g` and without
        // optimization (so that dead metadata can still be stripped): an optimized build has no
        // names. The portable name spells the context by its image and offset instead, and
        // resolves back to the type.
        #expect(try anonymousName(PrivateMarker.self) == nil)
        #expect(try anonymousName(privateFixtureType) == nil)
        let portable = try #require(TypeMetadata(PrivateMarker.self).descriptor).portableName
        #expect(portable.contains("(unknown context at ") && !portable.contains("at $"), "\(portable)")
        #expect(try TypeMetadata(named: portable) == TypeMetadata(PrivateMarker.self))
        #else
        let marker = try #require(try anonymousName(PrivateMarker.self))
        let plain = try #require(try anonymousName(PlainClass.self))
        // The mangling of a private declaration (docs/ABI/Mangling.rst): module, name, the
        // private discriminator `33_` plus 32 hexadecimal digits and `LL`, then the kind.
        let pattern = /\$s\d+([A-Za-z]+)\d+([A-Za-z]+)33_([0-9A-F]{32})LL([VC])/
        let markerMatch = try #require(marker.wholeMatch(of: pattern))
        let plainMatch = try #require(plain.wholeMatch(of: pattern))
        #expect(markerMatch.1 == "RuntimeMetadataTests" && markerMatch.2 == "PrivateMarker" && markerMatch.4 == "V")
        #expect(plainMatch.2 == "PlainClass" && plainMatch.4 == "C")
        // The compiler derives the discriminator from the file: the same for both types here, another
        // for a private type of another file.
        #expect(markerMatch.3 == plainMatch.3)
        let elsewhere = try #require(try anonymousName(privateFixtureType)?.wholeMatch(of: pattern))
        #expect(elsewhere.1 == "Fixtures" && elsewhere.2 == "PrivateFixture")
        #expect(elsewhere.3 != markerMatch.3)
        // The runtime's own mangling of the type spells the context by its address instead.
        let runtimeName = try #require(_mangledTypeName(PrivateMarker.self))
        #expect(!runtimeName.contains(String(markerMatch.3)))
        #endif
    }
}
