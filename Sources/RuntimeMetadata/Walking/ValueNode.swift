// ValueNode.swift

/// One value as ``ValueWalker`` reports it: its type, its shape, and its parts.
///
/// A node holds the value, so it is not `Sendable` when the value is not.
public struct ValueNode {
    /// The shape of a value.
    public enum Style: Hashable, Sendable {
        /// No parts: numbers, strings, functions, metatypes, builtin values, and types whose
        /// parts are unknown (``ValueNode/partsUnavailable``).
        case leaf
        /// A struct, with its stored properties.
        case `struct`
        /// A class instance, with the stored properties of its class and superclasses.
        case `class`
        /// An enum value, with its payload, if any, under its case's name.
        case `enum`
        /// A tuple, with its elements.
        case tuple
        /// An optional, with its wrapped value as `some`.
        case optional
        /// An array, with its elements.
        case collection
        /// A dictionary, with its elements as `(key:value:)` tuples.
        case dictionary
        /// A set, with its members.
        case set
        /// A `CustomReflectable` value walked through its custom mirror (``ValueNode/customMirror``).
        case custom
    }

    /// The value, never an existential container: an `Any` holding an `Any` is looked through.
    public let value: Any

    /// The value's dynamic type.
    public let type: TypeMetadata

    /// The value's shape.
    public let style: Style

    /// The tag of an enum or optional value's case, or -1. Read once, by the walker right after
    /// it makes the node: a node's case name, child count, payload and declared types each
    /// need it, and each read is a call of the enum's `getEnumTag` witness on the projected
    /// value. 32 bits, as
    /// the witness returns it, in the padding after ``style``: a node is copied often, and a
    /// larger one is copied through `memcpy`.
    private var caseTag: Int32 = -1

    /// The custom mirror of a ``Style/custom`` node.
    public var customMirror: Mirror? { mirrorBox?.mirror }

    /// The custom mirror, boxed: a node is copied often, a `Mirror` is large.
    private let mirrorBox: MirrorBox?

    let plan: ImmortalReference<WalkPlanBox>

    /// Whether a function stored at its declaration's abstraction is handed out as `Mirror`
    /// hands it out, a copy of its declared type (``RuntimeMirror``), rather than withheld:
    /// each function that would not be called correctly in its general form is a stand-in that
    /// stops the program when called (OpaqueValueAccess+FunctionStandIns.swift).
    var handsOutFunctions = false

    init(value: Any, type: TypeMetadata, style: Style, plan: ImmortalReference<WalkPlanBox>, mirrorBox: MirrorBox?) {
        self.value = value
        self.type = type
        self.style = style
        self.plan = plan
        self.mirrorBox = mirrorBox
    }

    /// Reads ``caseTag`` from the value the node holds. Not in the initializer: there, the
    /// value is copied for the read.
    mutating func readCaseTag() {
        guard style == .enum || style == .optional else { return }
        caseTag = storedCaseTag()
    }

    /// The tag of the value the node holds, read through its enum witness.
    private func storedCaseTag() -> Int32 {
        OpaqueValueAccess.enumTag(projecting: value, metadata: type.reference).flatMap { Int32(exactly: $0) } ?? -1
    }

    /// The identity of a class instance, for cycle detection, or of a metatype, as `dump` uses
    /// it; `nil` for other values.
    public var objectIdentifier: ObjectIdentifier? {
        switch type.kind {
        case .class: return OpaqueValueAccess.objectIdentifier(of: value)
        case .metatype, .existentialMetatype, .objCClassWrapper:
            return (value as? Any.Type).map(ObjectIdentifier.init)
        default: return nil
        }
    }

    /// A class and its superclasses, the instance's own class first; empty for other values.
    public var classHierarchy: [TypeMetadata] { plan.withObject { $0.value.classHierarchy } }

    /// Why a struct or class instance is reported without parts: its module has no reflection
    /// metadata, or a stored property's type does not resolve; `nil` otherwise.
    public var partsUnavailable: RuntimeMetadataError? { plan.withObject { $0.value.partsUnavailable } }

    /// The case of an enum or optional value.
    public var enumCase: EnumCase? { withCase { $0 } }

    /// The name of an enum or optional value's case, as ``enumCase`` names it, read without
    /// copying the case.
    public var caseName: String? { withCase { $0.name } }

    /// Reads the value's case in place in the type's plan.
    /// - Parameter body: Receives the case.
    /// - Returns: What `body` returns, or `nil` for values other than enums and optionals, and
    ///   enums without reflection metadata.
    private func withCase<Result>(_ body: (EnumCase) -> Result) -> Result? {
        let tag = Int(caseTag)
        guard tag >= 0 else { return nil }
        return plan.withObject { box in box.value.cases.indices.contains(tag) ? body(box.value.cases[tag]) : nil }
    }

    /// The number of children ``forEachChild(_:)`` reports.
    public var childCount: Int {
        switch style {
        case .leaf: return 0
        case .struct, .class, .tuple: return plan.withObject { $0.value.layouts.count }
        case .enum, .optional: return withCase { $0.hasPayload } == true ? 1 : 0
        case .collection, .dictionary, .set:
            if arrayElements != nil, let count = OpaqueValueAccess.arrayCount(ofAny: value) { return count }
            return WalkedCollections.count(of: value) ?? 0
        case .custom: return customChildCount
        }
    }

    /// ``childCount`` for a custom mirror, out of line as ``forEachCustomChild(_:)`` is.
    private var customChildCount: Int {
        @inline(never) get { customMirror?.children.count ?? 0 }
    }

    /// Calls `body` with each child, in order: stored properties in declaration order
    /// (superclasses' first), tuple elements, an enum's payload, an optional's wrapped value,
    /// collection elements, or a custom mirror's children.
    /// - Parameter body: Receives each child.
    public func forEachChild(_ body: (consuming ValueChild) throws -> Void) rethrows {
        switch style {
        case .leaf:
            return
        case .struct, .class, .tuple:
            // The plan is read in place in its immortal box, not copied out with its arrays.
            // The closure captures the unretained reference rather than the box, which it would
            // retain.
            let plan = self.plan
            try plan.withObject { box in
                try OpaqueValueAccess.forEachPart(of: value, isObject: style == .class, parts: box.value.layouts) {
                    index,
                    part in
                    // A tuple holding a withheld function stands in with the function withheld.
                    // Not `part ?? …`, which copies the part and destroys the original.
                    if let part {
                        try body(ValueChild(part: index, of: plan, value: part))
                    } else {
                        try body(ValueChild(part: index, of: plan, value: withheldTuple(at: index)))
                    }
                }
            }
        case .enum, .optional:
            if let payload = payloadChild() { try body(payload) }
        case .collection, .dictionary, .set:
            try forEachElement(body)
        case .custom:
            try forEachCustomChild(body)
        }
    }

    /// ``forEachChild(_:)`` for a custom mirror's children. Out of line, as `Mirror` is
    /// resilient: a function holding one sizes its frame at run time.
    @inline(never)
    private func forEachCustomChild(_ body: (consuming ValueChild) throws -> Void) rethrows {
        guard let customMirror else { return }
        for child in customMirror.children {
            try body(ValueChild(label: child.label, value: child.value, declaredType: nil, declaringType: nil))
        }
    }

    /// Whether ``child(at:)`` reads any child in constant time, without the children before
    /// it: for structs, classes, tuples, enums and optionals, and for the elements of an
    /// `Array` or `ContiguousArray`, read from the array's storage. Set and dictionary elements
    /// and custom mirror children are reached through those before them.
    public var hasRandomAccessChildren: Bool {
        switch style {
        case .leaf, .struct, .class, .tuple, .enum, .optional: return true
        case .collection: return arrayElements != nil
        case .dictionary, .set, .custom: return false
        }
    }

    /// ``forEachChild(_:)`` for collections: an array's elements from its storage, others'
    /// through their `Collection` conformance. Out of line, so that the paths of structs,
    /// classes and tuples stay as small as they are.
    @inline(never)
    private func forEachElement(_ body: (consuming ValueChild) throws -> Void) rethrows {
        let elementType = arrayElementType
        let element = { (value: Any) in
            ValueChild(label: nil, value: value, declaredType: elementType, declaringType: nil)
        }
        if let layout = arrayElements,
            try OpaqueValueAccess.forEachArrayElement(ofAny: value, layout: layout, { try body(element($0)) })
        {
            return
        }
        try WalkedCollections.forEachElement(of: value) { try body(element($0)) }
    }

    /// The child at a position in ``forEachChild(_:)``'s order, read without the others.
    ///
    /// A stored property, tuple element, payload or array element is read directly, in
    /// constant time (``hasRandomAccessChildren``), so a walk can keep its place in a node as
    /// an index rather than gathering the children first. Another collection's element or a
    /// custom mirror child is reached through those before it: linear time for sets and
    /// dictionaries.
    ///
    /// ```swift
    /// let node = ValueWalker().node(for: point)
    /// for index in 0..<node.childCount {
    ///     if let child = node.child(at: index) { print(child.label ?? "-", child.value ?? "?") }
    /// }
    /// ```
    /// - Parameter index: The child's position, in `0..<childCount`.
    /// - Returns: The child, or `nil` when `index` is outside `0..<childCount`.
    public func child(at index: Int) -> ValueChild? {
        guard index >= 0 else { return nil }
        switch style {
        case .leaf:
            return nil
        case .struct, .class, .tuple:
            // In range, a part without a value is a withheld function or a noncopyable part.
            guard index < plan.withObject({ $0.value.layouts.count }) else { return nil }
            return plan.withObject { ValueChild(part: index, of: $0, value: childValue(at: index)) }
        case .enum, .optional:
            return index == 0 ? payloadChild() : nil
        case .collection, .dictionary, .set:
            // Elements are never withheld: no value is no element.
            return childValue(at: index).map {
                ValueChild(label: nil, value: $0, declaredType: arrayElementType, declaringType: nil)
            }
        case .custom:
            return customChild(at: index)
        }
    }

    /// ``child(at:)`` for a custom mirror's children, out of line as
    /// ``forEachCustomChild(_:)`` is.
    @inline(never)
    private func customChild(at index: Int) -> ValueChild? {
        guard let children = customMirror?.children, index < children.count,
            let child = children.dropFirst(index).first
        else { return nil }
        return ValueChild(label: child.label, value: child.value, declaredType: nil, declaringType: nil)
    }

    /// The child at a position read as a given type: for a stored property or tuple element
    /// declared with exactly that type, or an element of an array of exactly that type, a copy
    /// from where the value holds it, without an `Any`.
    ///
    /// Other children, and other types, are read as ``child(at:)`` reads them and cast with
    /// `as?`.
    ///
    /// ```swift
    /// if node.declaredType(ofChildAt: 0) == TypeMetadata(Int.self) {
    ///     let x = node.child(at: 0, as: Int.self)
    /// }
    /// ```
    /// - Parameters:
    ///   - index: The child's position, in `0..<childCount`.
    ///   - type: The type to read the child as.
    /// - Returns: The child's value, or `nil` when `index` is outside `0..<childCount`, the
    ///   child is a withheld function, or its value is not a `Value`.
    @inlinable
    public func child<Value>(at index: Int, as type: Value.Type) -> Value? {
        // A part declared exactly `Value` and held strongly: a load from its offset, specialized
        // in the caller, so that no generic metadata is looked up at run time.
        guard let offset = directOffset(ofChildAt: index, type: MetadataReference(Value.self)) else {
            if let layout = arrayElements(ofType: MetadataReference(Value.self)) {
                return OpaqueValueAccess.loadArrayElement(of: value, at: index, layout: layout, as: Value.self)
            }
            return castChild(at: index, as: Value.self)
        }
        return OpaqueValueAccess.loadPart(of: value, isObject: style == .class, offset: offset, as: Value.self)
    }

    /// The value as a given type, when its dynamic type is exactly that type: a load from
    /// where the node holds it, without the runtime's cast.
    ///
    /// ```swift
    /// if node.type == TypeMetadata(Double.self), let number = node.value(as: Double.self) {
    ///     print(number)
    /// }
    /// ```
    /// - Parameter type: The value's exact type.
    /// - Returns: The value, or `nil` when its dynamic type is another type (a subclass, an
    ///   optional of it, a type it converts to); use `as?` for those.
    @inlinable
    public func value<Value>(as type: Value.Type) -> Value? {
        guard self.type == TypeMetadata(Value.self) else { return nil }
        return OpaqueValueAccess.loadPart(of: value, isObject: false, offset: 0, as: Value.self)
    }

    /// The offset of a stored property or tuple element declared exactly `type` and held
    /// strongly, which a typed read loads directly; `nil` for other children.
    @usableFromInline
    func directOffset(ofChildAt index: Int, type: MetadataReference) -> Int? {
        guard style == .struct || style == .class || style == .tuple else { return nil }
        return plan.withObject { box in
            guard box.value.layouts.indices.contains(index) else { return nil }
            let layout = box.value.layouts[index]
            guard layout.type == type, layout.ownership == .strong, layout.form.isAsType,
                !layout.isWithheldFunction, !layout.isNoncopyable
            else { return nil }
            return layout.offset
        }
    }

    /// The layout of an array's elements when they are exactly `type`, which a typed read loads
    /// directly; `nil` for other nodes and types.
    @usableFromInline
    func arrayElements(ofType type: MetadataReference) -> OpaqueValueAccess.ArrayElementLayout? {
        guard let layout = arrayElements, layout.type == type else { return nil }
        return layout
    }

    /// The layout of an array's elements, read from its storage; `nil` for other nodes, and
    /// where the array layout is not available.
    private var arrayElements: OpaqueValueAccess.ArrayElementLayout? {
        style == .collection ? plan.withObject { $0.value.arrayElements } : nil
    }

    /// The element type of an array; `nil` for other nodes.
    private var arrayElementType: TypeMetadata? {
        style == .collection ? plan.withObject { $0.value.arrayElementType } : nil
    }

    /// The general typed read: the child as ``child(at:)`` reads it, cast with `as?`.
    @usableFromInline
    @inline(never)
    func castChild<Value>(at index: Int, as type: Value.Type) -> Value? {
        // Unwrapped first: `Any?` cast to `Any` would be the optional itself.
        guard let child = child(at: index), let value = child.value else { return nil }
        return value as? Value
    }

    /// The label of the child at a position, without reading the child: a stored property's
    /// name, a tuple element's label or `.0`, a case's name, `some`.
    /// - Parameter index: The child's position, in `0..<childCount`.
    /// - Returns: The label; `nil` for collection elements, unlabelled custom mirror children,
    ///   and positions outside `0..<childCount`.
    public func label(ofChildAt index: Int) -> String? {
        switch style {
        case .struct, .class, .tuple:
            return plan.withObject { box in box.value.labels.indices.contains(index) ? box.value.labels[index] : nil }
        case .enum, .optional:
            guard index == 0 else { return nil }
            return withCase { $0.hasPayload ? $0.name : nil } ?? nil
        case .leaf, .collection, .dictionary, .set:
            return nil
        case .custom:
            return child(at: index)?.label
        }
    }

    /// The type the child at a position is declared with, without reading the child.
    /// - Parameter index: The child's position, in `0..<childCount`.
    /// - Returns: The declared type, as ``ValueChild/declaredType`` gives it: an array's
    ///   `Element` for its elements; `nil` for other collections' elements, custom mirror
    ///   children, and positions outside `0..<childCount`.
    public func declaredType(ofChildAt index: Int) -> TypeMetadata? {
        switch style {
        case .struct, .class, .tuple:
            return plan.withObject { box in
                box.value.partTypes.indices.contains(index) ? box.value.partTypes[index] : nil
            }
        case .enum, .optional:
            guard index == 0 else { return nil }
            return withCase { $0.hasPayload ? $0.recordedPayloadType : nil } ?? nil
        case .collection:
            guard let elementType = arrayElementType, index >= 0, index < childCount else { return nil }
            return elementType
        default:
            return nil
        }
    }

    /// The positions of the stored properties that one class of a class instance's hierarchy
    /// declares, as ``child(at:)`` reads them.
    ///
    /// A class's own properties follow its superclasses', so each class's are one range: the
    /// lines of a dump's `super:` sections, for example.
    /// - Parameter level: A class in ``classHierarchy``.
    /// - Returns: The positions; empty for a class that declares no stored properties, for a
    ///   type outside the hierarchy, and for nodes that are not class instances.
    public func childIndices(declaredBy level: TypeMetadata) -> Range<Int> {
        guard style == .class else { return 0..<0 }
        return plan.withObject { box in
            guard let first = box.value.declaringTypes.firstIndex(of: level) else { return 0..<0 }
            var end = first + 1
            while end < box.value.declaringTypes.count, box.value.declaringTypes[end] == level { end += 1 }
            return first..<end
        }
    }

    /// The payload of an enum or optional value, as a child: one labelled value is a one-element
    /// tuple, laid out as its element, as `Mirror` shows it.
    private func payloadChild() -> ValueChild? {
        withPayloadCase { enumCase, payloadType in
            ValueChild(
                label: enumCase.name,
                value: payload(of: enumCase, type: payloadType),
                declaredType: payloadType,
                declaringType: nil
            )
        }
    }

    /// Reads the value's case, when it has a payload, with the payload's declared type.
    /// - Parameter body: Receives the case and its payload type.
    /// - Returns: What `body` returns, or `nil` for a case without a payload and for values
    ///   other than enums and optionals.
    private func withPayloadCase<Result>(_ body: (EnumCase, TypeMetadata) -> Result?) -> Result? {
        withCase { enumCase -> Result? in
            guard enumCase.hasPayload, let payloadType = enumCase.recordedPayloadType else { return nil }
            return body(enumCase, payloadType)
        } ?? nil
    }

    /// The payload of an enum or optional value of a case with a payload, or `nil` for a
    /// withheld function.
    private func payload(of enumCase: EnumCase, type payloadType: TypeMetadata) -> Any? {
        guard !enumCase.storesSubstitutedFunction else {
            guard enumCase.recordedPayloadForm == .asType else { return nil }
            if handsOutFunctions {
                return OpaqueValueAccess.payloadWithFunctionStandIns(
                    inAny: value,
                    metadata: type.reference,
                    payloadType: payloadType.reference,
                    isIndirect: enumCase.isIndirect
                ) { TypeMetadata($0).isCalledAlikeAtEveryAbstraction }
            }
            // A payload tuple holding a function: its elements, the function withheld.
            return WithheldTuple.value(of: payloadType, at: 0) { parts in
                OpaqueValueAccess.enumPayloadParts(
                    inAny: value,
                    metadata: type.reference,
                    payloadType: payloadType.reference,
                    isIndirect: enumCase.isIndirect,
                    parts: parts
                )
            }
        }
        // A payload stored in a form that cannot be decided is not read.
        guard let form = enumCase.recordedPayloadForm else { return nil }
        return OpaqueValueAccess.enumPayload(
            inAny: value,
            metadata: type.reference,
            payloadType: payloadType.reference,
            form: form,
            isIndirect: enumCase.isIndirect
        )
    }

    /// The stand-in for a stored property or tuple element that holds a withheld function: with
    /// ``handsOutFunctions``, a copy of its declared type; otherwise, for a tuple, the tuple with
    /// each function a ``WithheldFunction``. `nil` for any other part.
    private func withheldTuple(at index: Int) -> Any? {
        let layout: OpaqueValueAccess.PartLayout? = plan.withObject { box in
            index < box.value.layouts.count ? box.value.layouts[index] : nil
        }
        // A tuple holding both a withheld function and a part stored in another form is withheld
        // whole: the stand-ins copy parts at their types' own offsets.
        guard let layout, layout.isWithheldFunction, layout.form.isAsType else { return nil }
        let isObject = style == .class
        if handsOutFunctions {
            return OpaqueValueAccess.partWithFunctionStandIns(layout, of: value, isObject: isObject) {
                TypeMetadata($0).isCalledAlikeAtEveryAbstraction
            }
        }
        guard layout.type.rawKind == MetadataKind.tuple.rawValue else { return nil }
        return WithheldTuple.value(of: TypeMetadata(layout.type), at: layout.offset) { parts in
            parts.map { OpaqueValueAccess.part($0, of: value, isObject: isObject) }
        }
    }

    /// The value of the child at a position, as ``child(at:)`` reads it, without its label
    /// and types.
    /// - Parameter index: The child's position.
    /// - Returns: The value; `nil` outside `0..<childCount` and for a withheld function.
    func childValue(at index: Int) -> Any? {
        guard index >= 0 else { return nil }
        switch style {
        case .leaf:
            return nil
        case .struct, .class, .tuple:
            // Returned as it is: `part ?? withheldTuple(at: index)` copies the part through
            // `Optional<Any>`'s witnesses and destroys the original.
            if let part = plan.withObject({ box -> Any? in
                guard index < box.value.layouts.count else { return nil }
                return OpaqueValueAccess.part(box.value.layouts[index], of: value, isObject: style == .class)
            }) {
                return part
            }
            return withheldTuple(at: index)
        case .enum, .optional:
            guard index == 0 else { return nil }
            return withPayloadCase { payload(of: $0, type: $1) }
        case .collection, .dictionary, .set:
            if let layout = arrayElements {
                return OpaqueValueAccess.arrayElement(ofAny: value, at: index, layout: layout)
            }
            return WalkedCollections.element(of: value, at: index)
        case .custom:
            return customChild(at: index)?.value
        }
    }

    /// The children, as ``forEachChild(_:)`` reports them.
    public var children: [ValueChild] {
        var children: [ValueChild] = []
        forEachChild { children.append($0) }
        return children
    }
}

/// Collection elements, read through the `Collection` conformance.
private enum WalkedCollections {
    static let collection = try? ProtocolDescriptor((any Collection).self)

    static func count(of value: Any) -> Int? {
        collection?.withOpened(value, as: (any Collection).self) { $0.count }
    }

    static func element(of value: Any, at index: Int) -> Any? {
        func element<C: Collection>(_ elements: C) -> Any? {
            guard let position = elements.index(elements.startIndex, offsetBy: index, limitedBy: elements.endIndex),
                position != elements.endIndex
            else { return nil }
            return elements[position]
        }
        return collection?.withOpened(value, as: (any Collection).self) { element($0) } ?? nil
    }

    static func forEachElement(of value: Any, _ body: (Any) throws -> Void) rethrows {
        func iterate<C: Collection>(_ elements: C) throws {
            // An array's elements copied from their storage; others through the iterator.
            if try OpaqueValueAccess.forEachContiguousElement(of: elements, body) { return }
            for element in elements { try body(element) }
        }
        _ = try collection?.withOpened(value, as: (any Collection).self) { try iterate($0) }
    }
}
