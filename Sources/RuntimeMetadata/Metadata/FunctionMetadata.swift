// FunctionMetadata.swift

/// The signature of a function type: parameters, result, effects, isolation and convention.
public struct FunctionMetadata: Hashable, Sendable, CustomStringConvertible {
    /// How a function is called.
    public enum Convention: Hashable, Sendable {
        /// A Swift closure (thick: function pointer plus context).
        case swift
        /// An Objective-C block.
        case block
        /// A thin function without context.
        case thin
        /// A C function pointer.
        case c
        /// A convention this library does not know, with its raw value.
        case other(UInt8)
    }

    /// Where a function runs.
    public enum Isolation: Hashable, Sendable {
        /// No isolation is recorded in the type.
        case nonisolated
        /// Isolated to a global actor, such as `@MainActor`.
        case globalActor(TypeMetadata)
        /// Isolated to the actor passed as its `isolated` parameter.
        case isolatedParameter
        /// `@isolated(any)`: the isolation is carried with the function value.
        case isolatedAny
        /// `nonisolated(nonsending)`: runs on the caller's actor.
        case callerIsolated
    }

    /// How a parameter is passed.
    public enum ParameterOwnership: Hashable, Sendable {
        /// The default convention.
        case `default`
        /// `inout`.
        case `inout`
        /// `borrowing`.
        case borrowing
        /// `consuming`.
        case consuming
    }

    /// One parameter of a function type.
    public struct Parameter: Hashable, Sendable, CustomStringConvertible {
        /// The parameter's type.
        public let type: TypeMetadata
        /// How it is passed.
        public let ownership: ParameterOwnership
        /// Whether it is variadic (`T...`).
        public let isVariadic: Bool
        /// Whether it is `@autoclosure`.
        public let isAutoclosure: Bool
        /// Whether it is `isolated`.
        public let isIsolated: Bool
        /// Whether it is `sending`.
        public let isSending: Bool

        /// The parameter as it would be written.
        public var description: String {
            var prefix = ""
            switch ownership {
            case .inout: prefix = "inout "
            case .borrowing: prefix = "borrowing "
            case .consuming: prefix = "consuming "
            case .default: break
            }
            if isIsolated { prefix = "isolated " + prefix }
            if isSending { prefix = "sending " + prefix }
            return prefix + type.name + (isVariadic ? "..." : "")
        }
    }

    /// The parameters in order.
    public let parameters: [Parameter]
    /// The result type.
    public let result: TypeMetadata
    /// Whether the function throws.
    public let isThrowing: Bool
    /// The thrown error type of typed throws (`throws(E)`), or `nil`.
    public let thrownError: TypeMetadata?
    /// Whether the function is `async`.
    public let isAsync: Bool
    /// Whether the function is `@Sendable`.
    public let isSendable: Bool
    /// Whether the function is escaping.
    public let isEscaping: Bool
    /// Whether the function is `@differentiable`.
    public let isDifferentiable: Bool
    /// Whether the result is `sending`.
    public let hasSendingResult: Bool
    /// The calling convention.
    public let convention: Convention
    /// The isolation.
    public let isolation: Isolation

    /// The function's type name.
    public var description: String {
        "(" + parameters.map(\.description).joined(separator: ", ") + ")" + (isAsync ? " async" : "")
            + (isThrowing ? (thrownError.map { " throws(\($0.name))" } ?? " throws") : "") + " -> " + result.name
    }
}

extension TypeMetadata {
    /// The signature of a function type; `nil` for other kinds.
    public var function: FunctionMetadata? {
        guard let summary = record.reference.function else { return nil }
        typealias Flag = FunctionTypeMetadataLayout.Flag
        typealias ExtendedFlag = FunctionTypeMetadataLayout.ExtendedFlag
        let parameters = summary.parameters.map { parameter in
            let ownership: FunctionMetadata.ParameterOwnership
            switch parameter.flags & 0x7F {
            case 1: ownership = .inout
            case 2: ownership = .borrowing
            case 3: ownership = .consuming
            default: ownership = .default
            }
            return FunctionMetadata.Parameter(
                type: TypeMetadata(parameter.type),
                ownership: ownership,
                isVariadic: parameter.flags & 0x80 != 0,
                isAutoclosure: parameter.flags & 0x100 != 0,
                isIsolated: parameter.flags & 0x400 != 0,
                isSending: parameter.flags & 0x800 != 0
            )
        }
        let isolation: FunctionMetadata.Isolation
        if let actor = summary.globalActor {
            isolation = .globalActor(TypeMetadata(actor))
        } else if summary.extendedFlags & ExtendedFlag.isolationMask == ExtendedFlag.isolatedAny {
            isolation = .isolatedAny
        } else if summary.extendedFlags & ExtendedFlag.isolationMask == ExtendedFlag.nonIsolatedCaller {
            isolation = .callerIsolated
        } else if parameters.contains(where: \.isIsolated) {
            isolation = .isolatedParameter
        } else {
            isolation = .nonisolated
        }
        let rawConvention = UInt8((summary.flags & Flag.conventionMask) >> Flag.conventionShift)
        let convention: FunctionMetadata.Convention
        switch rawConvention {
        case 0: convention = .swift
        case 1: convention = .block
        case 2: convention = .thin
        case 3: convention = .c
        default: convention = .other(rawConvention)
        }
        return FunctionMetadata(
            parameters: parameters,
            result: TypeMetadata(summary.result),
            isThrowing: summary.flags & Flag.throwsMask != 0,
            thrownError: summary.thrownError.map(TypeMetadata.init),
            isAsync: summary.flags & Flag.asyncMask != 0,
            isSendable: summary.flags & Flag.sendableMask != 0,
            isEscaping: summary.flags & Flag.escapingMask != 0,
            isDifferentiable: summary.flags & Flag.differentiableMask != 0,
            hasSendingResult: summary.extendedFlags & ExtendedFlag.sendingResultMask != 0,
            convention: convention,
            isolation: isolation
        )
    }
}
