// ClassMetadataLayout.swift
//
// Mirrors swift::TargetClassMetadata (TargetAnyClassMetadata and
// TargetAnyClassMetadataObjCInterop) from swiftlang/swift include/swift/ABI/Metadata.h,
// checked against Swift 6.3.1 on Linux x86_64.
//
// Platform branch: with Objective-C interop (Apple platforms) two cache words and the
// rodata word follow `Superclass`, which moves `Flags` to +40 and `Description` to +64.
// Without it (Linux) `Flags` is at +16 and `Description` at +40. This is the branch Echo
// gets wrong on Linux. Class members (generic arguments, vtable, field offsets) follow
// `IVarDestroyer`; each class in the chain says where its own members start.

/// A view of Swift class metadata.
@unsafe
struct ClassMetadataLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var kind: UInt  // isa on Objective-C platforms
        var superclass: UInt  // const TargetClassMetadata *
        #if _runtime(_ObjC)
        var cacheData0: UInt
        var cacheData1: UInt
        var data: UInt
        #endif
        var flags: UInt32  // ClassFlags
        var instanceAddressPoint: UInt32
        var instanceSize: UInt32
        var instanceAlignMask: UInt16
        var reserved: UInt16
        var classSize: UInt32
        var classAddressPoint: UInt32
        var description: UInt  // const TargetClassDescriptor *
        var ivarDestroyer: UInt
    }

    /// The address point of the metadata.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The address point.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `Superclass`, or `nil` for a root class.
    var superclass: UnsafeRawPointer? {
        unsafe address.pointer(at: MemoryLayout<Fields>.offset(of: \.superclass)!)
    }

    /// `Flags` (`ClassFlags`).
    var flags: UInt32 { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.flags)!) }

    /// `ClassFlags::UsesSwiftRefcounting`; with `IsSwiftPreStableABI` (bit 0) the Swift-class test
    /// of `TargetAnyClassMetadata::isTypeMetadata`.
    var isSwiftClass: Bool { unsafe flags & 0x3 != 0 }

    /// `InstanceSize` in bytes, heap header included.
    var instanceSize: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.instanceSize)!, as: UInt32.self))
    }

    /// `InstanceAlignMask`.
    var instanceAlignMask: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.instanceAlignMask)!, as: UInt16.self))
    }

    /// The first word: the metadata kind on Linux (0 for a class), the Objective-C isa on Apple
    /// platforms.
    var kindWord: UInt { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.kind)!, as: UInt.self) }

    /// `InstanceAddressPoint`: the offset of an instance's address point from the start of its
    /// allocation.
    var instanceAddressPoint: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.instanceAddressPoint)!, as: UInt32.self))
    }

    /// `ClassSize`: the bytes of the whole metadata object, prefix and members included.
    var classSize: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.classSize)!, as: UInt32.self))
    }

    /// `ClassAddressPoint`: the offset of the address point from the start of the metadata object.
    var classAddressPoint: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.classAddressPoint)!, as: UInt32.self))
    }

    /// `Description`, or `nil` for artificial subclasses.
    var description: UnsafeRawPointer? {
        unsafe address.pointer(at: MemoryLayout<Fields>.offset(of: \.description)!)
    }

    /// Reads `count` word-sized field offsets starting at a word index (class offsets are `StoredPointer`s).
    /// - Parameters:
    ///   - wordIndex: The index of the first offset, in words from the address point.
    ///   - count: The number of fields.
    /// - Returns: The byte offsets.
    func fieldOffsets(wordIndex: Int, count: Int) -> [Int] {
        (0..<count).map {
            unsafe Int(bitPattern: address.read(at: (wordIndex + $0) * MemoryLayout<UInt>.size, as: UInt.self))
        }
    }
}
