// ValueChild.swift

/// One part of a value: a stored property, a tuple element, a payload, an element.
public struct ValueChild {
    /// The part's label: a property's name, a tuple element's label or `.0`, a case's name,
    /// `some`; `nil` for collection elements.
    public let label: String?

    /// The part's value, looked through any existential container. A tuple holding such a
    /// function (`(title: String, action: () -> Void)`, as a property or a payload) is handed
    /// out with each function a ``WithheldFunction``: `(title: String, action:
    /// WithheldFunction)`; ``declaredType`` keeps the real tuple type.
    ///
    /// `nil` only for a function
    /// stored at its declaration's abstraction (or an optional holding one), which cannot be
    /// handed out as a value (the DocC article "Reading type metadata"), and for a stored
    /// property of noncopyable type, which ``declaredType`` names and no copy can be made of.
    /// A noncopyable property whose type the compiler hid from reflection
    /// (``Field/isTypeHidden``) is `()`, declared `()`, as `Mirror` shows it.
    public let value: Any?

    /// The type the part is declared with (`Any` for an `Any` property, whose ``value`` has its
    /// own dynamic type), an array's `Element` for its elements; `nil` for other collections'
    /// elements and custom mirror children.
    public let declaredType: TypeMetadata?

    /// The class that declares a stored property of a class instance; `nil` for other parts.
    public let declaringType: TypeMetadata?
}
