// TypeMetadata+Kind.swift

extension TypeMetadata {
    /// The kind of a type's metadata, as the runtime classifies it.
    ///
    /// The runtime adds kinds over time (Swift 5.7 added extended existentials, 6.2 fixed
    /// arrays); a kind this library does not know is reported as ``unknown(_:)`` with its raw
    /// value instead of trapping.
    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// A Swift class.
        case `class`
        /// A struct.
        case `struct`
        /// An enum other than `Optional`.
        case `enum`
        /// `Optional`.
        case optional
        /// A foreign class, such as a Core Foundation type.
        case foreignClass
        /// A foreign reference type imported from C++.
        case foreignReferenceType
        /// A builtin type with opaque layout, such as `Builtin.Int64`.
        case opaque
        /// A tuple.
        case tuple
        /// A function type.
        case function
        /// An existential such as `any P`, `Any` or `AnyObject`.
        case existential
        /// A metatype `T.Type`.
        case metatype
        /// An Objective-C class wrapper.
        case objCClassWrapper
        /// An existential metatype `any P.Type`.
        case existentialMetatype
        /// An extended existential such as `any Sequence<Int>`.
        case extendedExistential
        /// A builtin fixed-size array, the storage of `InlineArray`.
        case fixedArray
        /// A heap box for captured variables with static metadata.
        case heapLocalVariable
        /// A heap box for captured variables of generic type.
        case heapGenericLocalVariable
        /// The box behind an `any Error` value.
        case errorObject
        /// A concurrency task.
        case task
        /// A concurrency job.
        case job
        /// A kind this version of the library does not know.
        case unknown(UInt)

        /// Classifies a raw kind word.
        init(rawValue: UInt) {
            switch MetadataKind(rawValue: rawValue) {
            case .class: self = .class
            case .struct: self = .struct
            case .enum: self = .enum
            case .optional: self = .optional
            case .foreignClass: self = .foreignClass
            case .foreignReferenceType: self = .foreignReferenceType
            case .opaque: self = .opaque
            case .tuple: self = .tuple
            case .function: self = .function
            case .existential: self = .existential
            case .metatype: self = .metatype
            case .objCClassWrapper: self = .objCClassWrapper
            case .existentialMetatype: self = .existentialMetatype
            case .extendedExistential: self = .extendedExistential
            case .fixedArray: self = .fixedArray
            case .heapLocalVariable: self = .heapLocalVariable
            case .heapGenericLocalVariable: self = .heapGenericLocalVariable
            case .errorObject: self = .errorObject
            case .task: self = .task
            case .job: self = .job
            default: self = rawValue > MetadataKind.lastEnumerated ? .class : .unknown(rawValue)
            }
        }

        /// The lowercase name used in listings and JSON: `struct`, `foreignClass`, `unknown(0x7fe)`.
        public var description: String {
            switch self {
            case .class: "class"
            case .struct: "struct"
            case .enum: "enum"
            case .optional: "optional"
            case .foreignClass: "foreignClass"
            case .foreignReferenceType: "foreignReferenceType"
            case .opaque: "opaque"
            case .tuple: "tuple"
            case .function: "function"
            case .existential: "existential"
            case .metatype: "metatype"
            case .objCClassWrapper: "objCClassWrapper"
            case .existentialMetatype: "existentialMetatype"
            case .extendedExistential: "extendedExistential"
            case .fixedArray: "fixedArray"
            case .heapLocalVariable: "heapLocalVariable"
            case .heapGenericLocalVariable: "heapGenericLocalVariable"
            case .errorObject: "errorObject"
            case .task: "task"
            case .job: "job"
            case .unknown(let raw): "unknown(0x\(String(raw, radix: 16)))"
            }
        }

        /// Whether values of this kind are nominal types with a ``TypeDescriptor``.
        public var isNominal: Bool {
            switch self {
            case .class, .struct, .enum, .optional: true
            default: false
            }
        }

        /// Whether this version of the library knows the kind.
        public var isKnown: Bool {
            if case .unknown = self { return false }
            return true
        }
    }
}

extension TypeMetadata {
    /// Whether this is a builtin type (`Builtin.Int64`, `Builtin.FixedArray<N, T>`), which the
    /// standard library's own types store, and which the runtime's dynamic cast does not take as
    /// a destination.
    var isBuiltin: Bool { kind == .opaque || kind == .fixedArray }
}
