// WrongAnswerTests.swift
//
// Answers that were wrong without crashing, each checked against an oracle no one here wrote:
// `MemoryLayout`, the compiler's own metatypes, `as?`.

import Fixtures
import Testing

@testable import RuntimeMetadata

@Suite("Reliability: wrong answers")
struct WrongAnswerTests {
    @Test(
        "Integer arguments that overflow a fixed-size array's layout are refused",
        arguments: ["9223372036854775807", "1152921504606846976", "2305843009213693952", "-1"]
    )
    func hugeInlineArrays(_ count: String) async {
        await #expect(processExitsWith: .success) { [count] in
            for name in [
                "Swift.InlineArray<\(count), Swift.Int>",
                "Fixtures.ValueGenericStruct<\(count), Swift.Int>",
                "(Swift.Int, Swift.InlineArray<\(count), Swift.Int8>)",
            ] {
                let error = #expect(throws: RuntimeMetadataError.self, "\(name)") { try TypeMetadata(named: name) }
                #expect("\(error.map { "\($0)" } ?? "")".contains("overflow"), "\(name)")
            }
        }
    }

    @Test("Integer arguments that fit give MemoryLayout's sizes")
    func fittingInlineArrays() throws {
        let small = try TypeMetadata(named: "Swift.InlineArray<3, Swift.Int>")
        #expect(small == TypeMetadata(InlineArray<3, Int>.self))
        #expect(small.size == MemoryLayout<InlineArray<3, Int>>.size)
        let user = try TypeMetadata(named: "Fixtures.ValueGenericStruct<4, Swift.Int16>")
        #expect(user == TypeMetadata(ValueGenericStruct<4, Int16>.self))
        #expect(user.size == MemoryLayout<ValueGenericStruct<4, Int16>>.size)
        #expect(try TypeMetadata(named: "Swift.InlineArray<0, Swift.String>").size == 0)
    }
}

@Suite("Reliability: Copyable requirements")
struct CopyableRequirementTests {
    @Test(
        "A noncopyable argument for a parameter that requires Copyable is refused, as the compiler refuses it",
        arguments: [
            "Swift.Array<Fixtures.NoncopyableStruct>",
            "Swift.Dictionary<Swift.Int, Fixtures.NoncopyableStruct>",
            "Fixtures.GenericBox<Fixtures.NoncopyableStruct>",
            "Fixtures.GenericPair<Swift.Int, Fixtures.NoncopyableStruct>",
            "(Fixtures.NoncopyableStruct, Swift.Int)",
            "[Fixtures.NoncopyableStruct]",
        ]
    )
    func refused(_ name: String) {
        let error = #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(named: name) }
        #expect(error.map { "\($0)".contains("Copyable") } == true, "\(String(describing: error))")
    }

    @Test("Parameters declared ~Copyable take noncopyable arguments, and copyability follows")
    func admitted() throws {
        let optional = try TypeMetadata(named: "Swift.Optional<Fixtures.NoncopyableStruct>")
        #expect(optional == TypeMetadata(of: Optional<NoncopyableStruct>.self))
        #expect(!optional.isCopyable)
        let conditional = try TypeMetadata(named: "Fixtures.ConditionallyCopyable<Fixtures.NoncopyableStruct>")
        #expect(conditional == TypeMetadata(of: ConditionallyCopyable<NoncopyableStruct>.self))
        #expect(!conditional.isCopyable)
        let copyable = try TypeMetadata(named: "Fixtures.ConditionallyCopyable<Swift.Int>")
        #expect(copyable == TypeMetadata(ConditionallyCopyable<Int>.self))
        #expect(copyable.isCopyable)
    }
}

@Suite("Reliability: opening agrees with as?")
struct OpeningAgreesWithCastTests {
    /// What `as?` says, and what the library says, for the same value.
    static func agree(_ value: Any, descriptor: ProtocolDescriptor) -> (cast: Bool, opened: Bool, lent: Bool) {
        let opened = descriptor.open(value, as: (any FixtureProtocol).self)
        let lent = descriptor.withOpened(value, as: (any FixtureProtocol).self) { _ in true } ?? false
        return (value as? any FixtureProtocol != nil, opened != nil, lent)
    }

    @Test("Optionals, nested optionals, AnyObject boxes, AnyHashable and nested existentials are looked through")
    func lookThrough() throws {
        let descriptor = try ProtocolDescriptor((any FixtureProtocol).self)
        let point = Point(x: 1, y: 2)
        let values: [Any] = [
            point,
            Optional(point) as Any,
            Optional(Optional(point)) as Any,
            Optional<Point>.none as Any,
            Optional<Optional<Point>>.some(nil) as Any,
            point as AnyObject,
            Optional(point as AnyObject) as Any,
            Holder<Any>(point).held,
            "not a conformer",
            Optional("not a conformer") as Any,
            "not a conformer" as AnyObject,
            AnyHashable(point),
            Optional(AnyHashable(point)) as Any,
            AnyHashable(Optional(point)),
            AnyHashable("not a conformer"),
            AnyHashable(1 as Int8),
        ]
        for value in values {
            let answers = Self.agree(value, descriptor: descriptor)
            #expect(answers.opened == answers.cast, "\(value)")
            #expect(answers.lent == answers.cast, "\(value)")
        }
        // The opened value is the conformer itself.
        let opened = descriptor.open(Optional(Optional(point)) as Any, as: (any FixtureProtocol).self)
        #expect((opened as? Point) == point)
        let unboxed = descriptor.open(point as AnyObject, as: (any FixtureProtocol).self)
        #expect((unboxed as? Point) == point)
        let unhashed = descriptor.withOpened(AnyHashable(point), as: (any FixtureProtocol).self) { $0 as? Point }
        #expect(unhashed == point)
    }
}

@Suite("Reliability: raw identifiers")
struct RawIdentifierTests {
    typealias RawLabelled = (`a b`: Int, c: String)
    typealias Keyword = (`class`: Int, `1x`: Double)
    typealias KeywordLabel = (`class`: Int, b: Int)

    @Test("Raw-identifier tuple labels keep their backticks both ways, as the compiler and Mirror have them")
    func tupleLabels() throws {
        let metadata = TypeMetadata(RawLabelled.self)
        let mirrorLabels = Mirror(reflecting: (`a b`: 1, c: "x") as RawLabelled).children.map(\.label)
        #expect(metadata.tupleElements.map(\.label) == mirrorLabels)
        #expect(metadata.tupleElements.count == 2)
        #expect(metadata.name == String(reflecting: RawLabelled.self))
        // By name such a tuple is refused with a clear error (the runtime builds another tuple
        // from the same label string); by mangled name it resolves.
        let error = #expect(throws: RuntimeMetadataError.self) {
            try TypeMetadata(named: "(`a b`: Swift.Int, c: Swift.String)")
        }
        #expect(error.map { "\($0)".contains("mangled name") } == true)
        #expect(try TypeMetadata(mangledName: _mangledTypeName(Keyword.self)!) == TypeMetadata(Keyword.self))
        #expect(TypeMetadata(Keyword.self).tupleElements.map(\.label) == ["class", "`1x`"])
        // An escaped keyword is a plain label.
        #expect(try TypeMetadata(named: "(`class`: Swift.Int, b: Swift.Int)") == TypeMetadata(KeywordLabel.self))
        #expect(try TypeMetadata(mangledName: _mangledTypeName(RawLabelled.self)!) == metadata)
    }

    @Test("A backticked plain identifier is that identifier, as in Swift source")
    func escapedIdentifiers() throws {
        #expect(try TypeMetadata(named: "`Swift`.Int") == TypeMetadata(Int.self))
        #expect(try TypeMetadata(named: "Swift.`Int`") == TypeMetadata(Int.self))
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(named: "`Swift.Int`") }
    }
}

@Suite("Reliability: extension contexts")
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

@Suite("Reliability: image attribution")
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

@Suite("Reliability: private type names")
struct PrivateTypeNameTests {
    @Test("Every private type's portable name has no address and resolves to the type")
    func portableNames() {
        var checked = 0
        var failures: [String] = []
        for descriptor in TypeDescriptor.allLoaded() where descriptor.qualifiedName.contains("(unknown context at $") {
            let portable = descriptor.portableName
            if portable.contains("at $") { failures.append("address kept: \(portable)") }
            guard !descriptor.isGeneric, descriptor.hasMetadata, let metadata = descriptor.metadata else { continue }
            checked += 1
            do {
                if try TypeMetadata(named: portable) != metadata { failures.append("other type: \(portable)") }
            } catch {
                failures.append("\(portable): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(checked > 50)
    }

    @Test("Layout equality decides from identical bits only where bits decide: padding is not data")
    func paddingIsNotData() {
        // Copies of a loadable struct may drop its padding, so the storage is written here and
        // compared in place, through the entry point that every specialized caller inlines.
        func compare(_ left: [UInt8], _ right: [UInt8], _ type: Any.Type) -> Bool {
            unsafe left.withUnsafeBytes { left in
                unsafe right.withUnsafeBytes { right in
                    unsafe LayoutEquality.compare(
                        left.baseAddress!,
                        right.baseAddress!,
                        type: MetadataReference(type),
                        size: left.count
                    )
                }
            }
        }
        // `flag` at 0, padding at 1..<8, `count` at 8: equal whatever the padding holds.
        #expect(MemoryLayout<PaddedPlain>.offset(of: \.count) == 8)
        let one: [UInt8] = [1, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 2, 0, 0, 0, 0, 0, 0, 0]
        let other: [UInt8] = [1, 0x55, 0, 0, 0, 0, 0, 0x55, 2, 0, 0, 0, 0, 0, 0, 0]
        #expect(compare(one, other, PaddedPlain.self))
        #expect(compare(one, one, PaddedPlain.self))
        var differentCount = other
        differentCount[8] = 3
        #expect(!compare(one, differentCount, PaddedPlain.self))
        var differentFlag = other
        differentFlag[0] = 2
        #expect(!compare(one, differentFlag, PaddedPlain.self))
        // A type without padding: different bits are different values.
        #expect(!compare(one, other, (Int, Int).self))
        #expect(compare(one, one, (Int, Int).self))
    }

    @Test("Types the runtime cannot name (constrained existential metatypes) are named without crashing")
    func unnamableTypes() async {
        // `String(reflecting:)` itself crashes on these with Swift 6.3.1, so each question runs
        // in a child process: a crash fails the test instead of ending the run.
        await #expect(processExitsWith: .success) {
            let metatype = TypeMetadata((any Sequence<Int>.Type).self)
            #expect(metatype.kind == .extendedExistential)
            #expect(metatype.name == "any Swift.Sequence<Swift.Int>.Type")
            #expect(metatype.mangledName == nil)
            #expect(
                TypeMetadata([any Sequence<Int>.Type].self).name == "Swift.Array<any Swift.Sequence<Swift.Int>.Type>"
            )
            #expect(
                TypeMetadata((Int, label: any Collection<String>.Type).self).name
                    == "(Swift.Int, label: any Swift.Collection<Swift.String>.Type)"
            )
            #expect(
                TypeMetadata(Optional<any Sequence<Int>.Type>.self).name
                    == "Swift.Optional<any Swift.Sequence<Swift.Int>.Type>"
            )
            // Nested a thousand levels deep: named once per level, on the reserve stack.
            let deep = TypeMetadata(optionals(around: (any Sequence<Int>.Type).self, depth: 1000))
            #expect(
                deep.name
                    == String(repeating: "Swift.Optional<", count: 1000) + "any Swift.Sequence<Swift.Int>.Type"
                    + String(repeating: ">", count: 1000)
            )
            // The kinds the runtime names are still its names.
            #expect(TypeMetadata((any Sequence<Int>).self).name == String(reflecting: (any Sequence<Int>).self))
            #expect(TypeMetadata([Int].self).mangledName != nil)
            // Errors that name such a type say so instead of crashing.
            struct Holder { var numbers: any Sequence<Int>.Type = [Int].self }
            let field = try #require(try? TypeMetadata(Holder.self).field(named: "numbers"))
            let error = #expect(throws: RuntimeMetadataError.self) {
                try field.value(in: Holder(), as: Int.self)
            }
            #expect("\(error.map { "\($0)" } ?? "")".contains("any Swift.Sequence<Swift.Int>.Type"))
            #expect(throws: RuntimeMetadataError.self) {
                try ExistentialContents(of: [Int].self as any Sequence<Int>.Type, as: (any Sequence<Int>.Type).self)
            }
        }
    }
}

/// A struct with seven bytes of padding and no `==`: compared as two byte ranges.
private struct PaddedPlain {
    var flag: UInt8
    var count: Int
}

/// `Optional<Optional<…<type>…>>`, `depth` levels deep, built at run time.
private func optionals(around type: Any.Type, depth: Int) -> Any.Type {
    func wrap<T>(_: T.Type) -> Any.Type { Optional<T>.self }
    var result = type
    for _ in 0..<depth { result = _openExistential(result, do: wrap) }
    return result
}
