// StoredFormFixtures.swift
//
// Shapes whose stored form differs from their type's metadata (the DocC article
// "Understanding the ABI layer"): thin metatypes, and tuples, optionals and enum payloads
// declared with them, beside the thick metatypes of classes, existential metatypes and type
// parameters, which are stored as their metadata says.

/// A protocol for the existential metatypes.
public protocol StoredFormProtocol {}

/// A base class, whose metatype is thick.
open class StoredFormBase {
    public init() {}
}

/// A subclass, held where a `StoredFormBase.Type` is declared.
public final class StoredFormSubclass: StoredFormBase {}

/// The reproducer: a thin metatype between two integers.
public struct ThinMetatypeHolder: Equatable {
    public var a = 1
    public var t: Int.Type = Int.self
    public var b = 2
    public init(a: Int = 1, b: Int = 2) {
        self.a = a
        self.b = b
    }
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.a == rhs.a && lhs.t == rhs.t && lhs.b == rhs.b }
}

/// Every thin and thick shape the declaration decides, each between two integers.
public struct StoredForms {
    public var a = 1
    public var optional: Int.Type? = Int.self
    public var none: Int.Type? = nil
    public var doubleOptional: Int.Type?? = .some(nil)
    public var tuple: (Int, Int.Type) = (7, Int.self)
    public var labelled: (count: Int, kind: String.Type, name: String) = (3, String.self, "three")
    public var optionalTuple: (Int.Type, Int.Type)? = (Int.self, Int.self)
    public var metatypeOfMetatype: Int.Type.Type = Int.Type.self
    public var existential: (any StoredFormProtocol).Type = (any StoredFormProtocol).self
    public var function: ((Int) -> Int).Type = ((Int) -> Int).self
    public var classMetatype: StoredFormBase.Type = StoredFormSubclass.self
    public var classMetatypeOfMetatype: StoredFormBase.Type.Type = StoredFormBase.Type.self
    public var anyType: Any.Type = String.self
    public var existentialMetatype: any StoredFormProtocol.Type = Int.self
    public var b = 2
    public init() {}
}

extension Int: StoredFormProtocol {}

/// A class whose thin metatype property sits right after the object's header.
public final class ThinMetatypeObject {
    public var kind: String.Type = String.self
    public var count = 5
    public init() {}
}

/// A generic struct: `T.Type` is thick whatever `T` is; `[T].Type` and `(T, Int.Type)`'s
/// second element are thin.
public struct GenericStoredForms<T> {
    public var a = 1
    public var parameter: T.Type
    public var array: [T].Type = [T].self
    public var mixed: (T, Int.Type)
    public var optionalParameter: T.Type?
    public var b = 2
    public init(_ value: T) {
        parameter = T.self
        mixed = (value, Int.self)
        optionalParameter = T.self
    }
}

/// A metatype reached through an associated type: its form cannot be decided without the
/// declaration, which the library cannot resolve.
public struct AssociatedStoredForms<S: Sequence> {
    public var a = 1
    public var element: S.Element.Type = S.Element.self
    public var b = 2
    public init() {}
}

/// Enum payloads declared with thin metatypes.
public enum ThinPayload {
    case metatype(Int.Type)
    case pair(Int.Type, Int)
    case labelled(kind: String.Type)
    case reference(StoredFormBase.Type)
    indirect case boxed(Int.Type, String)
    case empty
}

/// A generic enum: `T.Type` is thick.
public enum GenericPayload<T> {
    case parameter(T.Type)
    case mixed(T, Int.Type)
}

/// A metatype of an associated type inside a tuple: its form depends on the declaration,
/// which the library cannot resolve, so it is refused.
public struct AssociatedTuple<S: Sequence> {
    public var pair: (S.Element.Type, Int) = (S.Element.self, 3)
    public init() {}
}
