// StaticCondition.swift
//
// Conditions known for the whole life of the process, in the manner of Engine's
// StaticConditionalContent: the branch never changes, so the graph never has to be ready for
// it to, and the node's type says which branch it holds.

/// A condition whose value never changes while the process runs, such as a build flag.
///
/// ```swift
/// struct IsDebug: StaticCondition {
///     static var value: Bool { false }
/// }
/// ```
public protocol StaticCondition {
    /// The condition's value.
    static var value: Bool { get }
}

/// One of two views, chosen by a ``StaticCondition``.
public struct StaticConditionalContent<Condition: StaticCondition, TrueContent: View, FalseContent: View>: View,
    PrimitiveView
{
    /// The view when the condition holds.
    public var trueContent: TrueContent
    /// The view when it does not.
    public var falseContent: FalseContent

    /// Chooses between two views by a static condition.
    /// - Parameters:
    ///   - condition: The condition.
    ///   - then: The view when the condition holds.
    ///   - otherwise: The view when it does not.
    public init(
        _ condition: Condition.Type = Condition.self,
        @ViewBuilder then: () -> TrueContent,
        @ViewBuilder otherwise: () -> FalseContent
    ) {
        trueContent = then()
        falseContent = otherwise()
    }

    /// Primitive views have no body.
    public typealias Body = Never

    var isMultiView: Bool { true }

    @MainActor func makeChildren(_ children: inout Children) {
        if Condition.value {
            children.append(trueContent, branch: 0)
        } else {
            children.append(falseContent, branch: 1)
        }
    }
}

/// One of two modifiers, chosen by a ``StaticCondition``.
public struct StaticConditionalModifier<
    Condition: StaticCondition,
    TrueModifier: ViewModifier,
    FalseModifier: ViewModifier
>: ViewModifier {
    /// The modifier when the condition holds.
    public var trueModifier: TrueModifier
    /// The modifier when it does not.
    public var falseModifier: FalseModifier

    /// Chooses between two modifiers by a static condition.
    /// - Parameters:
    ///   - condition: The condition.
    ///   - then: The modifier when the condition holds.
    ///   - otherwise: The modifier when it does not.
    public init(
        _ condition: Condition.Type = Condition.self,
        then: () -> TrueModifier,
        otherwise: () -> FalseModifier
    ) {
        trueModifier = then()
        falseModifier = otherwise()
    }

    /// The content with the chosen modifier.
    /// - Parameter content: The modified view.
    /// - Returns: The content with one of the modifiers.
    public func body(
        content: Content
    ) -> StaticConditionalContent<
        Condition, ModifiedContent<Content, TrueModifier>, ModifiedContent<Content, FalseModifier>
    > {
        StaticConditionalContent(Condition.self) {
            content.modifier(trueModifier)
        } otherwise: {
            content.modifier(falseModifier)
        }
    }
}
