// TypeMetadata+Equality.swift

extension TypeMetadata {
    /// Compares two values of the same type by their layout, without requiring `Equatable`.
    ///
    /// The comparison is built once per type from the field model and then runs without
    /// allocating:
    /// - a type that conforms to `Equatable` is compared with its own `==`;
    /// - integers, `Bool` and other bitwise-comparable stored data are compared as bytes;
    /// - structs and tuples are compared field by field, skipping padding;
    /// - enums compare their tags, then the payloads of the matching case;
    /// - class references compare with the class's `==` when the stored type is `Equatable`, and
    ///   by identity (`===`) otherwise; functions and `weak` and `unowned` references compare by
    ///   identity;
    /// - existentials (`Any`, `any P`, `AnyObject`, `any Error`) compare their dynamic types, then
    ///   their values by these same rules.
    ///
    /// The rules hold at every level: a field, a payload or an existential's value compares as
    /// the same value would at the top. For `Equatable` types the answer equals `==`; for others
    /// it is the structural equality a view layer uses to decide whether a value changed.
    /// Values of any depth (an indirect list of a million nodes) are compared without recursion.
    ///
    /// Two values whose bits are identical are equal without a field-by-field comparison, unless
    /// a floating-point value the type stores inline (in itself, a field, a tuple element or an
    /// enum payload) is a NaN, which is not equal to itself. A shared reference counts as equal,
    /// as it does for `Array`'s own `==`, and an `Equatable` type's `==` is taken to be
    /// reflexive, as the protocol requires of every type but floating point.
    /// - Parameters:
    ///   - lhs: A value.
    ///   - rhs: Another value of the same type.
    /// - Returns: Whether the values are equal by layout.
    @inlinable
    public static func layoutEquals<T>(_ lhs: T, _ rhs: T) -> Bool {
        LayoutEquality.compare(lhs, rhs)
    }

    /// The cached comparator of the type.
    var comparator: ValueComparator {
        record.comparator.value { makeComparator() }
    }

    /// The `Equatable` protocol and the index of its `==` requirement.
    private static let equatableProtocol: (descriptor: ProtocolDescriptor, equals: Int)? = {
        guard let descriptor = try? ProtocolDescriptor((any Equatable).self),
            let equals = descriptor.reference.requirementFlags.firstIndex(where: { $0 & 0x0F == 1 })
        else { return nil }
        return (descriptor, equals)
    }()

    /// The stdlib types whose `==` is bitwise equality of their storage.
    private static let bitwiseTypes: Set<TypeMetadata> = [
        TypeMetadata(Int.self), TypeMetadata(Int8.self), TypeMetadata(Int16.self), TypeMetadata(Int32.self),
        TypeMetadata(Int64.self), TypeMetadata(UInt.self), TypeMetadata(UInt8.self), TypeMetadata(UInt16.self),
        TypeMetadata(UInt32.self), TypeMetadata(UInt64.self), TypeMetadata(Bool.self),
        TypeMetadata(Unicode.Scalar.self),
        TypeMetadata(ObjectIdentifier.self),
    ]

    /// One field's place in a comparison.
    private enum Part {
        case bytes(Range<Int>)
        case comparator(offset: Int, ValueComparator)
    }

    /// The comparator of the type: its structural comparison, preceded by a comparison of the
    /// values' bits where identical bits decide equality.
    private func makeComparator() -> ValueComparator {
        let slots = size > 0 ? floatingPointSlots : nil
        let comparator = makeStructuralComparator(floatingPointSlots: slots)
        guard let slots else { return comparator }
        var ranges: [Range<Int>] = []
        Self.addSignificantRanges(of: self, at: 0, to: &ranges, depth: 0)
        return .identicalBitsFirst(comparator, ranges: ranges, size: size, unlessNaNAt: slots)
    }

    /// The places a value of the type stores floating-point numbers inline, when identical
    /// bits mean equal values everywhere else: `nil` when they do not decide.
    private var floatingPointSlots: [FloatingPointSlot]? {
        var slots: [FloatingPointSlot] = []
        return Self.addFloatingPointSlots(of: self, at: 0, to: &slots, depth: 0) ? slots : nil
    }

    /// Adds the byte ranges that hold a type's data, at an offset, to a list, merged with the
    /// last when adjacent: a struct's or tuple's padding is left out, since the compiler does
    /// not initialize it, and two equal values (`State<Bool>`: a `Bool`, then seven bytes of
    /// padding) would otherwise differ in their bits. Any other type counts whole: a range
    /// too wide only sends a comparison on to the structural comparator.
    /// - Parameters:
    ///   - type: The type.
    ///   - offset: Its offset in the outermost value.
    ///   - ranges: The ranges so far.
    ///   - depth: The nesting of inline storage so far.
    private static func addSignificantRanges(
        of type: TypeMetadata,
        at offset: Int,
        to ranges: inout [Range<Int>],
        depth: Int
    ) {
        func add(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            if let last = ranges.last, last.upperBound == range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
        }
        switch type.kind {
        case .struct where depth < 64 && !bitwiseTypes.contains(type):
            guard let fields = try? type.fields, fields.allSatisfy({ $0.type == nil || $0.storedType != nil }) else {
                return add(offset..<(offset + type.size))
            }
            for field in fields {
                guard let fieldType = field.storedType, field.ownership == .strong else {
                    add((offset + field.offset)..<(offset + field.offset + MemoryLayout<UInt>.size))
                    continue
                }
                addSignificantRanges(of: fieldType, at: offset + field.offset, to: &ranges, depth: depth + 1)
            }
        case .tuple where depth < 64:
            for element in type.tupleElements {
                addSignificantRanges(of: element.type, at: offset + element.offset, to: &ranges, depth: depth + 1)
            }
        default:
            add(offset..<(offset + type.size))
        }
    }

    /// The comparison of the type's structure, or its own `==`.
    /// - Parameter floatingPointSlots: Where the type stores floating-point numbers, when
    ///   identical bits decide elsewhere: a call of `==` is skipped for identical values none of
    ///   which is a NaN.
    /// - Returns: The comparator.
    private func makeStructuralComparator(floatingPointSlots: [FloatingPointSlot]?) -> ValueComparator {
        if let equatable = Self.equatableProtocol, let conformance = equatable.descriptor.conformance(of: self) {
            if Self.bitwiseTypes.contains(self) { return .bytes([0..<size]) }
            if let comparator = ValueComparator.equatable(
                reference,
                witnessTable: conformance.witnessTable,
                requirement: equatable.equals,
                unlessNaNAt: floatingPointSlots
            ) {
                return comparator
            }
        }
        switch kind {
        case .class:
            return .identity
        case .struct:
            // Each property as it is stored: a thin metatype is no bytes (StoredRepresentation.swift).
            guard let fields = try? fields, fields.allSatisfy({ $0.type == nil || $0.storedType != nil }) else {
                return .bytes([0..<size])
            }
            return Self.combine(
                fields.map { field in
                    guard let type = field.storedType, field.ownership == .strong else {
                        return .bytes(field.offset..<(field.offset + MemoryLayout<UInt>.size))
                    }
                    return Self.part(of: type, at: field.offset)
                }
            )
        case .tuple:
            return Self.combine(tupleElements.map { Self.part(of: $0.type, at: $0.offset) })
        case .enum, .optional:
            // Each payload as it is stored, as the enum's own layout holds it.
            guard let cases = try? cases, cases.allSatisfy({ $0.payloadType == nil || $0.payloadForm != nil }) else {
                return .bytes([0..<size])
            }
            return .enumeration(
                reference,
                payloads: cases.map { enumCase in
                    guard let payloadType = enumCase.payloadType, let form = enumCase.payloadForm, enumCase.hasPayload
                    else { return nil }
                    let storedType = TypeMetadata(form.storedType(of: payloadType.reference))
                    return (.deferred { storedType.comparator }, enumCase.isIndirect, storedType.reference)
                }
            )
        case .existential, .extendedExistential:
            return .existential(reference) { TypeMetadata($0).comparator }
        default:
            return .bytes([0..<size])
        }
    }

    /// How a value of a type at an offset takes part in its parent's comparison.
    private static func part(of type: TypeMetadata, at offset: Int) -> Part {
        if bitwiseTypes.contains(type) { return .bytes(offset..<(offset + type.size)) }
        switch type.kind {
        case .class where isEquatable(type):
            return .comparator(offset: offset, .deferred { type.comparator })
        case .class, .function, .metatype, .existentialMetatype:
            return .bytes(offset..<(offset + type.size))
        default:
            return .comparator(offset: offset, .deferred { type.comparator })
        }
    }

    /// `FloatingPoint`, whose values are not all equal to themselves.
    private static let floatingPointProtocol = try? ProtocolDescriptor((any FloatingPoint).self)

    /// The IEEE 754 formats of the standard library's floating-point types, the only
    /// `FloatingPoint` types whose bits are read as numbers here.
    private static let floatingPointFormats: [TypeMetadata: FloatingPointSlot.Format] = {
        var formats: [TypeMetadata: FloatingPointSlot.Format] = [
            TypeMetadata(Float.self): .single, TypeMetadata(Double.self): .double,
        ]
        #if arch(arm64) || os(Linux)
        formats[TypeMetadata(Float16.self)] = .half
        #endif
        #if arch(x86_64) && os(Linux)
        formats[TypeMetadata(Float80.self)] = .extended
        #endif
        return formats
    }()

    /// Adds the floating-point slots of a type's inline storage, at an offset, to a list, and
    /// says whether two values of the type whose bits are identical are equal unless one of
    /// those slots holds a NaN, so that a comparison may start with the bits and stop there.
    ///
    /// They are, unless a part's layout is not known or its bits are not its value: a
    /// `FloatingPoint` type other than the standard library's (whose NaNs this cannot tell), a
    /// vector of floating-point numbers, a type without field records, an opaque existential's
    /// contents. A reference to the same storage (an object, a box, a buffer) counts as equal,
    /// as it does for the values' own comparators and in the standard library's `Array` and
    /// `String`; an `Equatable` type's `==` is reflexive, as the protocol requires of every type
    /// but floating point, whose only exception is NaN.
    /// - Parameters:
    ///   - type: The type.
    ///   - offset: Its offset in the outermost value.
    ///   - slots: The slots found so far.
    ///   - depth: The nesting of inline storage so far.
    /// - Returns: Whether identical bits mean equal values but for NaNs in the slots.
    private static func addFloatingPointSlots(
        of type: TypeMetadata,
        at offset: Int,
        to slots: inout [FloatingPointSlot],
        depth: Int
    ) -> Bool {
        guard depth < 64 else { return false }
        if bitwiseTypes.contains(type) { return true }
        if let format = floatingPointFormats[type] {
            slots.append(FloatingPointSlot(offset: offset, format: format))
            return true
        }
        switch type.kind {
        case .class, .foreignClass, .foreignReferenceType, .objCClassWrapper, .function, .metatype,
            .existentialMetatype:
            return true
        case .existential:
            return type.existential?.isClassBound ?? false
        case .opaque:
            // Builtin storage: integers, pointers and references, or floating point (the
            // standard library's floating-point types are found above; a vector is not).
            return !type.name.contains("FPIEEE")
        case .struct:
            guard let floatingPoint = floatingPointProtocol, !floatingPoint.isConformed(by: type),
                let fields = try? type.fields
            else { return false }
            return fields.allSatisfy { field in
                guard field.ownership == .strong else { return true }
                guard let fieldType = field.type else { return false }
                return addFloatingPointSlots(of: fieldType, at: offset + field.offset, to: &slots, depth: depth + 1)
            }
        case .tuple:
            return type.tupleElements.allSatisfy {
                addFloatingPointSlots(of: $0.type, at: offset + $0.offset, to: &slots, depth: depth + 1)
            }
        case .enum, .optional:
            // A payload is stored from the enum's first byte (its tag, if any, after it or in
            // its spare bits).
            guard let cases = try? type.cases else { return false }
            return cases.allSatisfy { enumCase in
                guard enumCase.hasPayload, !enumCase.isIndirect else { return true }
                guard let payloadType = enumCase.payloadType else { return false }
                return addFloatingPointSlots(of: payloadType, at: offset, to: &slots, depth: depth + 1)
            }
        default:
            return false
        }
    }

    /// Whether a type conforms to `Equatable`.
    private static func isEquatable(_ type: TypeMetadata) -> Bool {
        equatableProtocol?.descriptor.conformance(of: type) != nil
    }

    /// Merges adjacent byte ranges and builds the field comparator.
    private static func combine(_ parts: [Part]) -> ValueComparator {
        var ranges: [Range<Int>] = []
        var fields: [(offset: Int, comparator: ValueComparator)] = []
        for part in parts {
            switch part {
            case .bytes(let range):
                if let last = ranges.last, last.upperBound == range.lowerBound {
                    ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
                } else if !range.isEmpty {
                    ranges.append(range)
                }
            case .comparator(let offset, let comparator):
                fields.append((offset, comparator))
            }
        }
        if fields.isEmpty { return .bytes(ranges) }
        if !ranges.isEmpty { fields.insert((0, .bytes(ranges)), at: 0) }
        return .fields(fields)
    }
}
