// WalkPlan.swift
//
// What the value walker needs to know about a type, computed once per type and published in
// its TypeRecord: the shape the walker reports, and for structs, classes and tuples the parts
// to copy (label, declared type, layout). Decided from the type's kind, its field records,
// and a few standard-library types whose structure is not what their users see: the numbers,
// strings and characters, which `Mirror` shows as leaves, and the collections, which are walked
// through their `Collection` conformance instead of their buffers.

/// The walker's plan for one type.
struct WalkPlan: Sendable {
    /// The shape the walker reports for values of the type.
    let style: ValueNode.Style
    /// Whether the type conforms to `CustomReflectable`.
    let isCustomReflectable: Bool
    /// Whether the type is one of the standard library's structs or enums that `Mirror` shows
    /// without structure and without a display style (its custom mirror has neither): every
    /// number type and the text types. Decided when the plan is made, so that a mirror's
    /// style costs no search per value.
    var isStandardMirrorLeaf = false
    /// The parts of a struct, class or tuple, in order.
    let labels: [String]
    /// The parts' declared types.
    let partTypes: [TypeMetadata]
    /// The class declaring each part of a class instance; empty for other kinds.
    let declaringTypes: [TypeMetadata]
    /// The parts' layouts.
    let layouts: [OpaqueValueAccess.PartLayout]
    /// A class and its superclasses, the class first; empty for other kinds.
    let classHierarchy: [TypeMetadata]
    /// Why a struct or class is shown without parts (no reflection metadata, an unresolvable
    /// field type), or `nil`.
    let partsUnavailable: RuntimeMetadataError?
    /// The element type of an `Array` or `ContiguousArray`, whose elements are read by position
    /// from the array's storage; `nil` for other types.
    let arrayElementType: TypeMetadata?
    /// The layout of those elements; `nil` for other types, and where the array layout is not
    /// available.
    let arrayElements: OpaqueValueAccess.ArrayElementLayout?
    /// The cases of an enum or optional, in tag order; empty for other types, and for enums
    /// without reflection metadata.
    let cases: [EnumCase]

    /// A plan without parts.
    init(
        style: ValueNode.Style,
        isCustomReflectable: Bool,
        partsUnavailable: RuntimeMetadataError? = nil,
        arrayElementType: TypeMetadata? = nil,
        cases: [EnumCase] = []
    ) {
        self.style = style
        self.isCustomReflectable = isCustomReflectable
        self.labels = []
        self.partTypes = []
        self.declaringTypes = []
        self.layouts = []
        self.classHierarchy = []
        self.partsUnavailable = partsUnavailable
        self.arrayElementType = arrayElementType
        self.arrayElements = arrayElementType.flatMap {
            OpaqueValueAccess.ArrayElementLayout(elementType: $0.reference)
        }
        self.cases = cases
    }

    /// A plan with parts.
    init(
        style: ValueNode.Style,
        isCustomReflectable: Bool,
        labels: [String],
        partTypes: [TypeMetadata],
        declaringTypes: [TypeMetadata],
        layouts: [OpaqueValueAccess.PartLayout],
        classHierarchy: [TypeMetadata]
    ) {
        self.style = style
        self.isCustomReflectable = isCustomReflectable
        self.labels = labels
        self.partTypes = partTypes
        self.declaringTypes = declaringTypes
        self.layouts = layouts
        self.classHierarchy = classHierarchy
        self.partsUnavailable = nil
        self.arrayElementType = nil
        self.arrayElements = nil
        self.cases = []
    }
}

/// A boxed walk plan.
final class WalkPlanBox: LazyBox {
    let value: WalkPlan
    init(_ value: WalkPlan) { self.value = value }
}

extension TypeMetadata {
    /// The walker's plan for this type, computed on first use.
    var walkPlan: ImmortalReference<WalkPlanBox> {
        immortalRecord.withObject { $0.walkPlan.immortalBox { computeWalkPlan() } }
    }

    /// Whether `Mirror` shows this type without structure and without a display style, as
    /// ``WalkPlan/isStandardMirrorLeaf`` says.
    var isStandardMirrorLeaf: Bool { walkPlan.withObject { $0.value.isStandardMirrorLeaf } }

    private func computeWalkPlan() -> WalkPlan {
        var plan = computeWalkPlanParts()
        plan.isStandardMirrorLeaf = WalkPlanTypes.mirrorLeaves.contains(self)
        return plan
    }

    private func computeWalkPlanParts() -> WalkPlan {
        let isCustomReflectable = WalkPlanTypes.customReflectable?.conformance(of: self) != nil
        if WalkPlanTypes.leaves.contains(self) {
            return WalkPlan(style: .leaf, isCustomReflectable: isCustomReflectable)
        }
        if let descriptor, let style = WalkPlanTypes.collections[descriptor] {
            let elementType = WalkPlanTypes.arrays.contains(descriptor) ? genericArguments.first?.type : nil
            return WalkPlan(style: style, isCustomReflectable: isCustomReflectable, arrayElementType: elementType)
        }
        switch kind {
        case .optional:
            return WalkPlan(style: .optional, isCustomReflectable: false, cases: (try? cases) ?? [])
        case .enum:
            return WalkPlan(style: .enum, isCustomReflectable: isCustomReflectable, cases: (try? cases) ?? [])
        case .tuple:
            let elements = tupleElements
            return WalkPlan(
                style: .tuple,
                isCustomReflectable: false,
                labels: elements.map(\.name),
                partTypes: elements.map(\.type),
                declaringTypes: [],
                // A tuple in an `Any` holds its elements in the general form: none is withheld.
                layouts: elements.map {
                    OpaqueValueAccess.PartLayout(
                        offset: $0.offset,
                        type: $0.type.reference,
                        ownership: .strong,
                        isWithheldFunction: false,
                        isNoncopyable: false
                    )
                },
                classHierarchy: []
            )
        case .struct, .class:
            return fieldPlan(isCustomReflectable: isCustomReflectable)
        default:
            return WalkPlan(style: .leaf, isCustomReflectable: isCustomReflectable)
        }
    }

    private func fieldPlan(isCustomReflectable: Bool) -> WalkPlan {
        let style: ValueNode.Style = kind == .class ? .class : .struct
        var hierarchy: [TypeMetadata] = []
        if kind == .class {
            var current: TypeMetadata? = self
            while let type = current, hierarchy.count < 4096 {
                hierarchy.append(type)
                current = type.superclass
            }
        }
        let fields: FieldList
        do {
            fields = try self.fields
        } catch {
            return WalkPlan(style: style, isCustomReflectable: isCustomReflectable, partsUnavailable: error)
        }
        var labels: [String] = []
        var types: [TypeMetadata] = []
        var declaring: [TypeMetadata] = []
        var layouts: [OpaqueValueAccess.PartLayout] = []
        for field in fields {
            // A stored property of noncopyable type whose type the compiler hid from reflection
            // (``Field/isTypeHidden``) is the `()` that its type accessor returns, as `Mirror`
            // shows it: an empty part, its siblings walked as usual.
            let fieldType = field.isTypeHidden ? TypeMetadata(Void.self) : field.type
            guard let type = fieldType, type.hasValueWitnesses else {
                let error = RuntimeMetadataError.unresolvableFieldType(
                    name: field.name,
                    typeName: name,
                    mangledName: field.mangledTypeName
                )
                return WalkPlan(style: style, isCustomReflectable: isCustomReflectable, partsUnavailable: error)
            }
            // A part stored in a form its declaration decides, and that cannot be decided.
            guard let form = field.isTypeHidden ? .asType : field.storage.withObject({ $0.storedForm }) else {
                let error = RuntimeMetadataError.unknownStorage(
                    typeName: type.name,
                    context: "field '\(field.name)' of '\(field.declaringType.name)'"
                )
                return WalkPlan(style: style, isCustomReflectable: isCustomReflectable, partsUnavailable: error)
            }
            labels.append(field.name)
            types.append(type)
            declaring.append(field.declaringType)
            layouts.append(
                OpaqueValueAccess.PartLayout(
                    offset: field.offset,
                    type: type.reference,
                    ownership: field.ownership.storage,
                    isWithheldFunction: field.storage.withObject { $0.storesSubstitutedFunction },
                    // A noncopyable part is listed with its type, and never copied.
                    isNoncopyable: !type.isCopyable,
                    form: form
                )
            )
        }
        return WalkPlan(
            style: style,
            isCustomReflectable: isCustomReflectable,
            labels: labels,
            partTypes: types,
            declaringTypes: kind == .class ? declaring : [],
            layouts: layouts,
            classHierarchy: hierarchy
        )
    }
}

/// The types the plans single out.
private enum WalkPlanTypes {
    /// `CustomReflectable`.
    static let customReflectable = try? ProtocolDescriptor((any CustomReflectable).self)

    /// The standard library's types that `Mirror` shows as leaves, without children, whatever
    /// their storage: the numbers, `Bool`, and the string and character types.
    static let leaves: Set<TypeMetadata> = {
        var types: [Any.Type] = [
            Int.self, Int8.self, Int16.self, Int32.self, Int64.self,
            UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self,
            Float.self, Double.self, Bool.self,
            String.self, Substring.self, Character.self, Unicode.Scalar.self, StaticString.self,
        ]
        #if arch(x86_64) || arch(i386)
        types.append(Float80.self)
        #endif
        return Set(types.map(TypeMetadata.init))
    }()

    /// The standard library's structs and enums that `Mirror` shows without structure and
    /// without a display style: the walker's leaves, and the 128-bit integers.
    static let mirrorLeaves: Set<TypeMetadata> = leaves.union([TypeMetadata(Int128.self), TypeMetadata(UInt128.self)])

    /// The descriptors of `Array` and `ContiguousArray`, whose storage is read directly.
    static let arrays: Set<TypeDescriptor> = Set(
        [[Int].self, ContiguousArray<Int>.self].compactMap { (type: Any.Type) in TypeMetadata(type).descriptor }
    )

    /// The standard library's collections, by descriptor, with the style `Mirror` gives them.
    static let collections: [TypeDescriptor: ValueNode.Style] = {
        var styles: [TypeDescriptor: ValueNode.Style] = [:]
        let entries: [(Any.Type, ValueNode.Style)] = [
            ([Int].self, .collection), (ArraySlice<Int>.self, .collection), (ContiguousArray<Int>.self, .collection),
            (Set<Int>.self, .set), ([Int: Int].self, .dictionary),
        ]
        for (type, style) in entries {
            if let descriptor = TypeMetadata(type).descriptor { styles[descriptor] = style }
        }
        return styles
    }()
}
