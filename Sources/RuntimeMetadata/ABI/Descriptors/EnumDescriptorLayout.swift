// EnumDescriptorLayout.swift
//
// Mirrors swift::TargetEnumDescriptor from swiftlang/swift include/swift/ABI/Metadata.h,
// checked against Swift 6.3.1 on Linux x86_64 (`enum E { case a(Int), b(String), c, d }`:
// 2 payload cases, 2 empty cases). The trailing objects are those of a struct descriptor.

/// A view of an enum descriptor.
@unsafe
struct EnumDescriptorLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var flags: UInt32
        var parent: Int32
        var name: Int32
        var accessFunctionPtr: Int32
        var fields: Int32
        var numPayloadCasesAndPayloadSizeOffset: UInt32  // low 24 bits: cases; high 8: offset in words
        var numEmptyCases: UInt32
    }

    /// The descriptor's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The descriptor's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    private var payloadWord: UInt32 {
        unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.numPayloadCasesAndPayloadSizeOffset)!)
    }

    /// `getNumPayloadCases`.
    var payloadCaseCount: Int { unsafe Int(payloadWord & 0x00FF_FFFF) }
    /// `getPayloadSizeOffset`, in words; 0 when no payload size is stored.
    var payloadSizeOffset: Int { unsafe Int(payloadWord >> 24) }
    /// `NumEmptyCases`.
    var emptyCaseCount: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.numEmptyCases)!, as: UInt32.self))
    }

    /// The trailing objects that follow the fixed fields.
    var trailing: ValueTypeTrailingObjects {
        unsafe ValueTypeTrailingObjects(descriptor: address, fixedSize: MemoryLayout<Fields>.size)
    }
}
