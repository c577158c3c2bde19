// GenericArgumentTests.swift
//
// Generic arguments checked as the compiler checks them: integer arguments that would overflow a
// fixed-size array's layout, and noncopyable arguments, against `MemoryLayout` and the
// compiler's own metatypes.

import Fixtures
import Testing

@testable import RuntimeMetadata

@Suite("Integer generic arguments")
struct IntegerArgumentTests {
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

@Suite("Copyable requirements")
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

/// Two levels of generic parameters, for the first one's argument.
private struct Outer<First> {
    struct Inner<Second> {}
}

@Suite("The first generic parameter read from its argument")
struct FirstGenericParameterTests {
    /// Resolves `name` both ways in the context of `type`: read from the argument where the
    /// name is the first parameter, and by the runtime's demangler.
    private func resolutions(of name: String, in type: Any.Type) -> (MetadataReference?, MetadataReference?) {
        var bytes = Array(name.utf8)
        bytes.append(0)
        return bytes.withUnsafeBytes { buffer in
            let layout = unsafe MangledNameLayout(buffer.baseAddress!)
            let metadata = MetadataReference(type)
            return unsafe (metadata.resolve(layout), metadata.resolvedByRuntime(layout))
        }
    }

    @Test(
        "x resolves to what the runtime resolves it to, in every kind of generic context",
        arguments: [
            [Int].self, [String: Double].self, Int?.self, Outer<Int8>.self, Outer<Int16>.Inner<String>.self,
            Result<UInt, Never>.self,
        ] as [Any.Type]
    )
    func firstParameter(_ type: Any.Type) {
        let (read, resolved) = resolutions(of: "x", in: type)
        #expect(read != nil, "\(type)")
        #expect(read == resolved, "\(type)")
    }

    @Test("Only the whole name x is read from the argument; value parameters are left to the runtime")
    func otherNames() {
        for name in ["xSg", "Sayx_G", "q_", "xx", "X"] {
            let bytes = Array(name.utf8) + [0]
            bytes.withUnsafeBytes { buffer in
                #expect(unsafe !MangledNameLayout(buffer.baseAddress!).isFirstGenericParameter, "\(name)")
            }
        }
        #expect(MetadataReference(InlineArray<2, Int>.self).firstTypeArgument == nil)
        #expect(MetadataReference(ValueGenericStruct<3, String>.self).firstTypeArgument == nil)
        #expect(MetadataReference(Int.self).firstTypeArgument == nil)
        #expect(MetadataReference([Int8].self).firstTypeArgument == MetadataReference(Int8.self))
        #expect(MetadataReference(Outer<Int16>.Inner<String>.self).firstTypeArgument == MetadataReference(Int16.self))
    }
}
