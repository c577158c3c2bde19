// RenderAttributes.swift

/// What a renderer shows for one node.
public struct RenderAttributes: Equatable, Sendable {
    /// The node's role in the output.
    public enum Role: Equatable, Sendable {
        /// A container without layout of its own, or a view whose children say everything.
        case container
        /// Text.
        case text(String)
        /// A stack of children along an axis.
        case stack(Axis, spacing: Int)
        /// A value that could not be shown, with the reason.
        case error(String)
        /// A control that performs an action when tapped; its label is its children.
        case button
    }

    /// The role.
    public var role: Role
    /// Padding on every edge, in points.
    public var padding: Int?
    /// A tag, as text.
    public var tag: String?
    /// Class names, such as CSS classes.
    public var classNames: [String]

    /// Creates attributes.
    /// - Parameters:
    ///   - role: The role.
    ///   - padding: Padding on every edge.
    ///   - tag: A tag.
    ///   - classNames: Class names.
    public init(role: Role = .container, padding: Int? = nil, tag: String? = nil, classNames: [String] = []) {
        self.role = role
        self.padding = padding
        self.tag = tag
        self.classNames = classNames
    }
}
