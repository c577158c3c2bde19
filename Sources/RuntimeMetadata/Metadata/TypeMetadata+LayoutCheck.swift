// TypeMetadata+LayoutCheck.swift
//
// The runtime builds a fixed-size array's layout (`Builtin.FixedArray<N, T>`, the storage of
// `InlineArray`) as N times the element's stride without checking for overflow, so an integer
// generic argument from input can produce a type whose size is negative or wrapped: `InlineArray<Int.max, Int>`
// measures −8 bytes. A type instantiated with integer arguments is therefore checked before it
// is handed out: every fixed-size array in its layout, reached through stored properties,
// tuple elements and enum payloads, must have a count of at least zero whose byte size fits
// in the address space, and every type a size between zero and the address space's and a
// stride no smaller than its size. `InlineArray`'s count must not be negative, as the compiler
// requires; the runtime would silently lay out `InlineArray<-1, T>` as empty.

extension TypeMetadata {
    /// The largest size a value can have: x86_64 and arm64 user address spaces span 47 bits.
    private static var maximumValueSize: Int { 1 << 47 }

    /// `Swift.InlineArray`, whose count the compiler requires to be at least zero.
    private static let inlineArrayDescriptor = TypeMetadata(InlineArray<0, Int>.self).descriptor

    /// A description of the first overflowed layout found in this type, or `nil` when its layout
    /// is sound.
    func layoutOverflow() -> String? {
        var pending = [self]
        var seen: Set<TypeMetadata> = []
        while let type = pending.popLast() {
            guard seen.insert(type).inserted else { continue }
            if type.size < 0 || type.stride < type.size || type.size > Self.maximumValueSize {
                return "'\(type.name)' would measure \(type.size) bytes with a stride of \(type.stride)"
            }
            switch type.kind {
            case .fixedArray:
                guard let (count, element) = type.fixedArray else { continue }
                let bytes = count.multipliedReportingOverflow(by: element.stride)
                if count < 0 || bytes.overflow || bytes.partialValue > Self.maximumValueSize {
                    return
                        "a fixed-size array of \(count) elements of '\(element.name)' (stride \(element.stride)) does not fit in memory"
                }
                pending.append(element)
            case .struct, .class:
                if type.kind == .struct, type.descriptor == Self.inlineArrayDescriptor,
                    case .value(let count)? = type.genericArguments.first, count < 0
                {
                    return "an InlineArray's count must not be negative (\(count))"
                }
                guard let fields = try? type.ownFields else { continue }
                pending += fields.compactMap(\.type)
            case .tuple:
                pending += type.tupleElements.map(\.type)
            case .enum, .optional:
                guard let cases = try? type.cases else { continue }
                pending += cases.compactMap(\.payloadType)
            default:
                continue
            }
        }
        return nil
    }
}
