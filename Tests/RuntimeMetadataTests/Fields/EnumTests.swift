// EnumTests.swift
//
// Enum cases and tags against `switch` and Mirror, payloads against the values put in, and
// injection against `==`.

import Fixtures
import RuntimeMetadata
import Testing

/// The case name of a value as a `switch` sees it.
private func switchName(_ value: MultiPayloadEnum) -> String {
    switch value {
    case .int: "int"
    case .string: "string"
    case .pair: "pair"
    case .empty: "empty"
    case .another: "another"
    }
}

private func switchName(_ value: MixedOrderEnum) -> String {
    switch value {
    case .e1: "e1"
    case .p1: "p1"
    case .e2: "e2"
    case .p2: "p2"
    }
}

private func switchName(_ value: IndirectTree) -> String {
    switch value {
    case .leaf: "leaf"
    case .node: "node"
    }
}

private func switchName(_ value: Int?) -> String {
    switch value {
    case .some: "some"
    case .none: "none"
    }
}

@Suite("Enums")
struct EnumTests {
    static let multiPayloadValues: [MultiPayloadEnum] = [.int(1), .string("s"), .pair(2, 3.5), .empty, .another]
    static let mixedValues: [MixedOrderEnum] = [.e1, .p1(1), .e2, .p2("two")]

    @Test("Case names of values equal the switch's", arguments: multiPayloadValues)
    func multiPayloadCaseNames(_ value: MultiPayloadEnum) throws {
        let metadata = TypeMetadata(MultiPayloadEnum.self)
        #expect(try metadata.caseName(of: value) == switchName(value))
        let tag = try metadata.tag(of: value)
        #expect(try metadata.cases[tag].name == switchName(value))
    }

    @Test("Interleaved cases: names follow the switch, tags put payload cases first", arguments: mixedValues)
    func mixedOrder(_ value: MixedOrderEnum) throws {
        let metadata = TypeMetadata(MixedOrderEnum.self)
        #expect(try metadata.caseName(of: value) == switchName(value))
        // include/swift/RemoteInspection/Records.h: payload cases first, then empty cases,
        // each in declaration order; the tags number them in that order.
        #expect(try metadata.cases.map(\.name) == ["p1", "p2", "e1", "e2"])
    }

    @Test("Case names equal Mirror's labels for payload cases and descriptions for empty ones")
    func caseNamesAgainstMirror() throws {
        let samples: [(Any.Type, Any)] = [
            (MultiPayloadEnum.self, MultiPayloadEnum.pair(1, 2)),
            (Shape.self, Shape.circle(radius: 2)),
            (Shape.self, Shape.point),
            (CompassDirection.self, CompassDirection.west),
            (SingleCaseEnum.self, SingleCaseEnum.only),
            (RawValueEnum.self, RawValueEnum.b),
            (GenericEnum<Int>.self, GenericEnum<Int>.one(1)),
            (IndirectTree.self, IndirectTree.node(.leaf(1), .leaf(2))),
            (PartiallyIndirectEnum.self, PartiallyIndirectEnum.list(.value(3))),
            (Namespace.NestedEnum.self, Namespace.NestedEnum.second(2)),
        ]
        for (type, value) in samples {
            let metadata = TypeMetadata(type)
            let name = try metadata.caseName(of: value)
            let mirror = Mirror(reflecting: value)
            let expected = mirror.children.first?.label ?? String(describing: value)
            #expect(name == expected, "\(type)")
        }
    }

    @Test("Every case of a CaseIterable enum is named in declaration order")
    func caseIterable() throws {
        let metadata = TypeMetadata(CompassDirection.self)
        #expect(try metadata.cases.map(\.name) == CompassDirection.allCases.map { String(describing: $0) })
        for direction in CompassDirection.allCases {
            #expect(try metadata.caseName(of: direction) == String(describing: direction))
        }
    }

    @Test("Optional: some and none")
    func optional() throws {
        let metadata = TypeMetadata(Int?.self)
        #expect(metadata.kind == .optional)
        for value: Int? in [1, nil] {
            #expect(try metadata.caseName(of: value) == switchName(value))
        }
        #expect(try metadata.payload(of: Int?.some(4), as: Int.self) == 4)
        #expect(try metadata.payload(of: Int?.none, as: Int.self) == nil)
    }

    @Test("Payloads equal the values put in", arguments: multiPayloadValues)
    func payloads(_ value: MultiPayloadEnum) throws {
        let metadata = TypeMetadata(MultiPayloadEnum.self)
        let payload = try metadata.payload(of: value, as: Any.self)
        switch value {
        case .int(let int): #expect(payload as? Int == int)
        case .string(let string): #expect(payload as? String == string)
        case .pair(let a, let b):
            let pair = try #require(payload as? (Int, Double))
            #expect(pair.0 == a && pair.1 == b)
        case .empty, .another: #expect(payload == nil)
        }
    }

    @Test("Payloads of indirect cases are read out of their boxes")
    func indirectPayloads() throws {
        let tree = IndirectTree.node(.leaf(1), .node(.leaf(2), .leaf(3)))
        let metadata = TypeMetadata(IndirectTree.self)
        let children = try #require(try metadata.payload(of: tree, as: (IndirectTree, IndirectTree).self))
        #expect(children.0 == .leaf(1))
        #expect(children.1 == .node(.leaf(2), .leaf(3)))
        #expect(try metadata.cases.allSatisfy(\.isIndirect))
        let partial = TypeMetadata(PartiallyIndirectEnum.self)
        #expect(try partial.cases.map(\.isIndirect) == [false, true])
        #expect(
            try partial.payload(of: PartiallyIndirectEnum.list(.value(5)), as: PartiallyIndirectEnum.self) == .value(5)
        )
    }

    @Test("Projection leaves the value intact and balanced: no leak, no double release")
    func projectionDoesNotLeak() throws {
        weak var weakObject: ReferenceFixture?
        do {
            let object = ReferenceFixture(id: 9, name: "held")
            weakObject = object
            let value = ClassPayloadEnum.object(object)
            let metadata = TypeMetadata(ClassPayloadEnum.self)
            for _ in 0..<100 {
                let payload = try metadata.payload(of: value, as: ReferenceFixture.self)
                #expect(payload === object)
            }
            let made: ClassPayloadEnum = try metadata.makeValue(case: "object", payload: object)
            #expect(made == value)
        }
        #expect(weakObject == nil)
    }

    @Test("Injected values equal the literals", arguments: multiPayloadValues)
    func injection(_ value: MultiPayloadEnum) throws {
        let metadata = TypeMetadata(MultiPayloadEnum.self)
        let name = switchName(value)
        let payload = try metadata.payload(of: value, as: Any.self)
        let made: MultiPayloadEnum = try metadata.makeValue(case: name, payload: payload)
        #expect(made == value)
    }

    @Test("Injection into indirect, generic and class-payload cases")
    func injectionVariants() throws {
        let tree: IndirectTree = try TypeMetadata(IndirectTree.self)
            .makeValue(case: "node", payload: (IndirectTree.leaf(1), IndirectTree.leaf(2)))
        #expect(tree == .node(.leaf(1), .leaf(2)))
        let generic: GenericEnum<String> = try TypeMetadata(GenericEnum<String>.self).makeValue(
            case: "pair",
            payload: ("a", "b")
        )
        #expect(generic == .pair("a", "b"))
        let object: ClassPayloadEnum = try TypeMetadata(ClassPayloadEnum.self)
            .makeValue(case: "object", payload: ReferenceFixture.shared)
        #expect(object == .object(.shared))
        let some: Int? = try TypeMetadata(Int?.self).makeValue(case: "some", payload: 3)
        #expect(some == 3)
        let none: Int? = try TypeMetadata(Int?.self).makeValue(case: "none")
        #expect(none == nil)
    }

    @Test("Wrong payloads and unknown cases throw")
    func injectionErrors() {
        let metadata = TypeMetadata(MultiPayloadEnum.self)
        #expect(throws: RuntimeMetadataError.self) {
            _ = try metadata.makeValue(case: "int", payload: "no", as: MultiPayloadEnum.self)
        }
        #expect(throws: RuntimeMetadataError.self) {
            _ = try metadata.makeValue(case: "int", as: MultiPayloadEnum.self)
        }
        #expect(throws: RuntimeMetadataError.self) {
            _ = try metadata.makeValue(case: "empty", payload: 1, as: MultiPayloadEnum.self)
        }
        #expect(throws: RuntimeMetadataError.noSuchCase(name: "missing", typeName: "Fixtures.MultiPayloadEnum")) {
            _ = try metadata.makeValue(case: "missing", as: MultiPayloadEnum.self)
        }
        #expect(throws: RuntimeMetadataError.self) {
            _ = try metadata.makeValue(case: "int", payload: 1, as: Shape.self)
        }
        #expect(throws: RuntimeMetadataError.self) { _ = try TypeMetadata(Point.self).cases }
        #expect(throws: RuntimeMetadataError.self) { _ = try metadata.tag(of: Shape.point) }
    }

    @Test("Payload types and counts of the descriptor")
    func payloadTypes() throws {
        let cases = try TypeMetadata(Shape.self).cases
        #expect(cases.map(\.name) == ["circle", "rectangle", "point"])
        // A single labelled associated value is recorded as a one-element tuple with the
        // element's layout; the model reports the element and keeps the label.
        #expect(cases[0].payloadType == TypeMetadata(Double.self))
        #expect(cases[0].payloadLabels == ["radius"])
        #expect(cases[1].payloadLabels == ["width", "height"])
        #expect(cases[1].payloadType == TypeMetadata((width: Double, height: Double).self))
        #expect(cases[2].payloadType == nil)
        #expect(cases.map(\.hasPayload) == [true, true, false])
        let generic = try TypeMetadata(GenericEnum<[Int]>.self).cases
        #expect(generic[0].payloadType == TypeMetadata([Int].self))
        #expect(generic[1].payloadType == TypeMetadata(([Int], [Int]).self))
        #expect(try TypeMetadata(EmptyEnum.self).cases.isEmpty)
    }

    @Test(
        "Existential values: Any, any P, nested Any and generic code answer as the concrete value does",
        arguments: multiPayloadValues
    )
    func existentialValues(_ value: MultiPayloadEnum) throws {
        let metadata = TypeMetadata(MultiPayloadEnum.self)
        // Swift opens an existential passed straight to a generic parameter (SE-0352); these
        // helpers pin the parameter to the existential type, as generic code with T == Any has it.
        func caseName<T>(_ value: T, as _: T.Type) throws(RuntimeMetadataError) -> String {
            try metadata.caseName(of: value)
        }
        func tag<T>(_ value: T, as _: T.Type) throws -> Int { try metadata.tag(of: value) }
        func enumCase<T>(_ value: T, as _: T.Type) throws -> EnumCase { try metadata.enumCase(of: value) }
        func payload<T>(_ value: T, as _: T.Type) throws -> Any? { try metadata.payload(of: value, as: Any.self) }
        let asAny: Any = value
        let asEquatable: any Equatable = value
        let nested: Any = { (inner: Any) -> Any in inner }(asAny)
        #expect(try caseName(asAny, as: Any.self) == switchName(value))
        #expect(try caseName(asEquatable, as: (any Equatable).self) == switchName(value))
        #expect(try caseName(nested, as: Any.self) == switchName(value))
        // An optional in an `Any` is looked through, as `as?` looks through it.
        let wrapped: Any = Optional(value) as Any
        #expect(try caseName(wrapped, as: Any.self) == switchName(value))
        #expect(try tag(asAny, as: Any.self) == metadata.tag(of: value))
        #expect(try enumCase(asEquatable, as: (any Equatable).self) == metadata.enumCase(of: value))
        // The payload, read from the box, equals the one put in.
        let fromAny = try payload(asAny, as: Any.self)
        let fromValue = try metadata.payload(of: value, as: Any.self)
        #expect(String(reflecting: fromAny) == String(reflecting: fromValue))
    }

    @Test(
        "Values passed as Any, as an [Any] holds them, answer through the Any forms as the switch does",
        arguments: multiPayloadValues
    )
    func anyForms(_ value: MultiPayloadEnum) throws {
        let metadata = TypeMetadata(MultiPayloadEnum.self)
        // Held as an `[Any]` holds them: a call with an `Any` argument picks the `Any` form,
        // which reads the value where its container holds it.
        let held: [Any] = [
            value,
            { (inner: Any) -> Any in inner }(value as Any),  // an Any holding an Any
            Optional(value) as Any,  // an optional, looked through as `as?` does
            value as any Equatable,  // an `any Equatable` inside the Any
            value as AnyObject,  // the standard library's box, as `as?` opens it
        ]
        for element in held {
            #expect(try metadata.caseName(of: element) == switchName(value), "\(type(of: element))")
            #expect(try metadata.tag(of: element) == metadata.tag(of: value), "\(type(of: element))")
        }
    }

    @Test("An enum too large for an Any's buffer is read from its box through the Any forms")
    func anyFormsBoxed() throws {
        enum Wide: Equatable {
            case pair(String, String)
            case quad(Int, Int, Int, Int)
            case none
        }
        let metadata = TypeMetadata(Wide.self)
        #expect(MemoryLayout<Wide>.size > 3 * MemoryLayout<Int>.size)
        let values: [Wide] = [.pair("a long string, stored out of line", "b"), .quad(1, 2, 3, 4), .none]
        let names = ["pair", "quad", "none"]
        for (value, name) in zip(values, names) {
            let held: [Any] = [value, Optional(value) as Any, { (inner: Any) -> Any in inner }(value as Any)]
            for element in held {
                #expect(try metadata.caseName(of: element) == name)
                #expect(try metadata.tag(of: element) == names.firstIndex(of: name))
            }
        }
    }

    @Test("Closures and class instances as payloads are read through the Any forms, from generic code too")
    func anyFormsClosuresAndClasses() throws {
        final class Target {}
        enum Handler {
            case run(() -> Int)
            case target(Target)
            case pair(Target, (Int) -> Int)
            case idle
        }
        let metadata = TypeMetadata(Handler.self)
        let values: [(Handler, String)] = [
            (.run({ 1 }), "run"), (.target(Target()), "target"), (.pair(Target(), { $0 }), "pair"), (.idle, "idle"),
        ]
        // Generic code, with `T` pinned to `Any` (as code generic over its elements has it) and
        // with the `Any` opened to the enum (as SE-0352 opens an `Any` passed to `T`).
        func genericName<T>(_ value: T, as _: T.Type) throws -> String { try metadata.caseName(of: value) }
        func openedName<T>(_ value: T) throws -> String { try metadata.caseName(of: value) }
        for (value, name) in values {
            let held: Any = value
            #expect(try metadata.caseName(of: held) == name)
            #expect(try genericName(held, as: Any.self) == name)
            #expect(try openedName(held) == name)
            #expect(try metadata.tag(of: held) == metadata.tag(of: value))
        }
    }

    @Test("The Any forms throw, never misread, for a value of another type or a type that is not an enum")
    func anyFormsReject() throws {
        let metadata = TypeMetadata(MultiPayloadEnum.self)
        let others: [(value: Any, typeName: String)] = [
            ("text", "Swift.String"), (42, "Swift.Int"), (Optional<Int>.none as Any, "Swift.Optional<Swift.Int>"),
            (MixedOrderEnum.e1, TypeMetadata(MixedOrderEnum.self).name),
        ]
        for (value, typeName) in others {
            do {
                let name = try metadata.caseName(of: value)
                Issue.record("\(typeName) in an Any was read as the case \(name)")
            } catch .typeMismatch(let expected, let actual, _) {
                #expect(expected == metadata.name)
                #expect(actual == typeName)
            } catch {
                Issue.record("unexpected error \(error)")
            }
            #expect(throws: RuntimeMetadataError.self) { try metadata.tag(of: value) }
        }
        #expect(throws: RuntimeMetadataError.wrongKind(typeName: "Swift.Int", expected: "an enum")) {
            try TypeMetadata(Int.self).caseName(of: 3 as Any)
        }
        #expect(throws: RuntimeMetadataError.wrongKind(typeName: "Swift.String", expected: "an enum")) {
            try TypeMetadata(String.self).tag(of: "a" as Any)
        }
    }

    @Test("An error existential opens to its enum; a mismatched existential throws naming its dynamic type")
    func errorExistentialsAndMismatches() throws {
        let metadata = TypeMetadata(FixtureError.self)
        func caseName<T>(_ value: T, as _: T.Type) throws(RuntimeMetadataError) -> String {
            try metadata.caseName(of: value)
        }
        func payload<T>(_ value: T, as _: T.Type) throws -> Int? { try metadata.payload(of: value, as: Int.self) }
        let error: any Error = FixtureError.failed(code: 7)
        #expect(try caseName(error, as: (any Error).self) == "failed")
        #expect(try payload(error, as: (any Error).self) == 7)
        let optional = TypeMetadata(Int?.self)
        func optionalCase<T>(_ value: T, as _: T.Type) throws -> String { try optional.caseName(of: value) }
        #expect(try optionalCase(Int?.some(3) as Any, as: Any.self) == "some")
        #expect(try optionalCase(Int?.none as Any, as: Any.self) == "none")
        do {
            _ = try caseName("text" as Any, as: Any.self)
            Issue.record("a String in an Any was read as an enum")
        } catch .typeMismatch(let expected, let actual, _) {
            #expect(expected == metadata.name)
            // The dynamic type, found by opening the Any: not "Any".
            #expect(actual == "Swift.String")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("Case records are never var and hold strong payloads, unlike a struct's var and weak fields")
    func caseRecordFacts() throws {
        for metadata in [TypeMetadata(MultiPayloadEnum.self), TypeMetadata(IndirectTree.self), TypeMetadata(Int?.self)]
        {
            let cases = try metadata.cases
            #expect(!cases.isEmpty)
            #expect(cases.allSatisfy { !$0.isVar && $0.ownership == .strong }, "\(metadata.name)")
        }
        // The same flags read from field records do tell var from let, and weak from strong.
        final class Target {}
        struct Holder {
            let constant = 1
            var variable = 2
            weak var weakReference: Target?
        }
        let fields = try TypeMetadata(Holder.self).fields
        #expect(fields.map(\.isVar) == [false, true, true])
        #expect(fields.map(\.ownership) == [.strong, .strong, .weak])
    }
}
