// ProtocolComposition.swift
//
// The canonical protocol list of a composition, as the compiler forms it: each protocol once,
// and none that another protocol of the list already inherits. `Equatable & Hashable` is
// `any Hashable`, and `P & P & P` is `any P`. The runtime's swift_getExistentialTypeMetadata
// takes the list it is given as the existential's identity, so it must be canonical first
// (swiftlang/swift lib/AST/ExistentialLayout.cpp and the minimization of
// ProtocolCompositionType::get in lib/AST/ASTContext.cpp).

extension ProtocolDescriptor {
    /// Removes duplicates and protocols that another protocol of the list inherits.
    /// - Parameter protocols: The protocols as written.
    /// - Returns: The minimal list, in the order written.
    static func minimalComposition(_ protocols: [ProtocolReference]) -> [ProtocolReference] {
        var unique: [ProtocolReference] = []
        var seen: Set<ProtocolReference> = []
        for reference in protocols where seen.insert(reference).inserted { unique.append(reference) }
        guard unique.count > 1 else { return unique }
        // Every protocol some member inherits, directly or not.
        var inherited: Set<ProtocolReference> = []
        for reference in unique {
            var pending = reference.inheritedProtocols
            while let next = pending.popLast() {
                if inherited.insert(next).inserted { pending += next.inheritedProtocols }
            }
        }
        return unique.filter { !inherited.contains($0) }
    }
}
