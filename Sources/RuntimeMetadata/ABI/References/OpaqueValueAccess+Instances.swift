// OpaqueValueAccess+Instances.swift
//
// Makes values and objects from their stored properties: a struct or tuple in fresh storage
// of its own type, a class instance through `swift_allocObject`
// (include/swift/Runtime/HeapObject.h), which writes the object's header (the class and a
// reference count of one) and leaves the stored properties to its caller. The public layer
// decides the properties and checks every value against its property's type first; here each
// is initialized in place, once.

extension OpaqueValueAccess {
    /// One stored property to initialize, with a value already of the property's type.
    struct PropertyValue {
        /// The property's offset in the value or object.
        let offset: Int
        /// The property's type.
        let type: MetadataReference
        /// How the property holds its reference.
        let ownership: StorageOwnership
        /// How the property is stored (OpaqueValueAccess+StoredForms.swift).
        let form: StoredForm
        /// The value, of the property's type (an `as?` to `type` succeeds).
        let value: Any
    }

    /// Casts a value to a property's type.
    /// - Parameters:
    ///   - value: The value.
    ///   - type: The property's type.
    /// - Returns: The value as the property's type, boxed, or `nil` when `as?` fails.
    static func cast(_ value: Any, to type: MetadataReference) -> Any? {
        func convert<Property>(_: Property.Type) -> Any? {
            guard let converted = value as? Property else { return nil }
            return converted
        }
        return _openExistential(type.metatype, do: convert)
    }

    /// Makes a struct or tuple value from the values of all its stored properties.
    /// - Parameters:
    ///   - type: The value's type.
    ///   - properties: Every stored property, each with a value of its type.
    /// - Returns: The value.
    static func makeValue(of type: MetadataReference, properties: [PropertyValue]) -> Any {
        func make<T>(_: T.Type) -> Any {
            let storage = UnsafeMutablePointer<T>.allocate(capacity: 1)
            defer { unsafe storage.deallocate() }
            unsafe initialize(properties, at: UnsafeMutableRawPointer(storage))
            return unsafe storage.move()
        }
        return _openExistential(type.metatype, do: make)
    }

    /// Makes an instance of a Swift class from the values of all its stored properties,
    /// inherited ones included, without running an initializer.
    /// - Parameters:
    ///   - type: The class.
    ///   - size: Its instance size.
    ///   - alignmentMask: Its instance alignment mask.
    ///   - properties: Every stored property, each with a value of its type.
    /// - Returns: The object, owned by the caller like any other reference.
    static func makeObject(
        of type: MetadataReference,
        size: Int,
        alignmentMask: Int,
        properties: [PropertyValue]
    ) -> AnyObject {
        let object = unsafe RuntimeEntryPoints.allocateObject(type.address, size: size, alignmentMask: alignmentMask)
        unsafe initialize(properties, at: object)
        return unsafe Unmanaged<AnyObject>.fromOpaque(object).takeRetainedValue()
    }

    /// Initializes each property of uninitialized storage.
    private static func initialize(_ properties: [PropertyValue], at base: UnsafeMutableRawPointer) {
        for property in properties {
            let written = unsafe write(
                property.value,
                at: base,
                offset: property.offset,
                fieldType: property.type,
                ownership: property.ownership,
                form: property.form,
                initializing: true
            )
            // The value was cast to the property's type by the caller; casting a value to its own
            // type cannot fail, and storage left uninitialized must never be handed out.
            precondition(written, "a property value not of the property's type")
        }
    }
}
