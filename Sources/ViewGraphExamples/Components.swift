// Components.swift
//
// Fiori's scenario: a component is declared as a composition of slot protocols (a title, a
// subtitle, an image, …), and one generic view renders any model whose type conforms to the
// composition, each slot opened through RuntimeMetadata: no generated view model per
// component.

import RuntimeMetadata
public import ViewGraph

/// A slot that shows a title.
public protocol TitleComponent { var title: String { get } }
/// A slot that shows a subtitle.
public protocol SubtitleComponent { var subtitle: String { get } }
/// A slot that shows a footnote.
public protocol FootnoteComponent { var footnote: String { get } }
/// A slot that shows an image, by name.
public protocol DetailImageComponent { var detailImage: String { get } }
/// A slot that shows a status.
public protocol StatusComponent { var status: String { get } }

/// A slot protocol the component view knows how to show.
@MainActor
struct Slot {
    /// The slot protocol.
    let protocolDescriptor: ProtocolDescriptor
    /// The name of the property the protocol requires, to find the model's declaration order.
    let property: String
    /// The slot's view for a model that conforms to the protocol.
    let view: (Any) -> (any View)?

    /// The slots this module shows; each opens the model as its protocol.
    static let known: [Slot] = [
        slot((any TitleComponent).self, "title", className: "component-title") { $0.title },
        slot((any SubtitleComponent).self, "subtitle", className: "component-subtitle") { $0.subtitle },
        slot((any FootnoteComponent).self, "footnote", className: "component-footnote") { $0.footnote },
        slot((any DetailImageComponent).self, "detailImage", className: "component-image") {
            "[image \($0.detailImage)]"
        },
        slot((any StatusComponent).self, "status", className: "component-status") { $0.status },
    ].compactMap { $0 }

    /// A slot whose view is a text made from the model opened as the slot's protocol, through
    /// the descriptor looked up once.
    private static func slot<E>(
        _ existential: E.Type,
        _ property: String,
        className: String,
        _ text: @escaping (E) -> String
    ) -> Slot? {
        guard let descriptor = try? ProtocolDescriptor(existential) else { return nil }
        return Slot(protocolDescriptor: descriptor, property: property) { model in
            descriptor.open(model, as: E.self).map { Text(text($0)).className(className) }
        }
    }
}

/// Shows any model whose type conforms to a composition of slot protocols: one row per slot,
/// in the order the model declares the slots' properties.
///
/// ```swift
/// protocol PersonDetailItemModel: TitleComponent, SubtitleComponent, DetailImageComponent {}
///
/// struct Person: PersonDetailItemModel {
///     var detailImage = "ada.png"
///     var title = "Ada Lovelace"
///     var subtitle = "Analyst"
/// }
///
/// ComponentView(model: Person(), composition: (any PersonDetailItemModel).self)
/// ```
///
/// The runtime keeps a protocol's inherited protocols in canonical (sorted) order, not as
/// written, so the order comes from the model: its stored properties, which RuntimeMetadata's
/// field model lists in declaration order. A slot whose property is computed comes after the
/// stored ones. A model that does not conform to the composition shows an error.
public struct ComponentView: View {
    /// The model, of any type.
    public var model: Any
    /// The composition's name, for errors.
    let compositionName: String
    /// The slots of the composition, in the model's order.
    let slots: [String]
    /// Whether the model conforms to the composition.
    let conforms: Bool

    /// A component for a model.
    /// - Parameters:
    ///   - model: The model.
    ///   - composition: The composition protocol, as an existential type:
    ///     `(any PersonDetailItemModel).self`.
    public init<E>(model: Any, composition: E.Type) {
        self.model = model
        let descriptor = try? ProtocolDescriptor(composition)
        compositionName = descriptor.map { TextRenderer.unqualifiedName($0.qualifiedName) } ?? "\(composition)"
        let modelType = TypeMetadata(type(of: model))
        conforms = descriptor?.conformance(of: modelType) != nil
        let required = Set(descriptor.map { [$0] + $0.inheritedProtocols } ?? [])
        let declared = ((try? modelType.fields.array) ?? []).map(\.name)
        let slots = Slot.known.filter { required.contains($0.protocolDescriptor) }
        self.slots =
            slots.sorted {
                (declared.firstIndex(of: $0.property) ?? Int.max) < (declared.firstIndex(of: $1.property) ?? Int.max)
            }
            .map(\.property)
    }

    /// The slots, one per line.
    public var body: some View {
        if conforms {
            Stack(.vertical, spacing: 2) {
                ForEach(slots, id: \.self) { property in
                    DynamicView(Slot.known.first { $0.property == property }?.view(model) ?? EmptyView())
                }
            }
            .className("component")
        } else {
            InvalidView(reason: "\(TypeMetadata(type(of: model)).name) does not conform to \(compositionName)")
        }
    }
}
