// SeedScenarioTests.swift
//
// The four scenarios the conformance API is for, run as tests: an Engine-style view visitor,
// a component catalog of protocol compositions, @Subview-style property discovery, and a typed
// route tree read from generic arguments.

import RuntimeMetadata
import Testing

// MARK: - 1. Engine's EngineCore example: a ViewVisitor opens an Any into its concrete view.

/// A view protocol in the style of SwiftUI's, with an associated body type.
protocol SeedView {
    associatedtype Body
    var body: Body { get }
}

struct SeedText: SeedView {
    var text: String
    var body: Never? { nil }
}

struct SeedStack<Content: SeedView>: SeedView {
    var content: Content
    var body: Content { content }
}

/// Engine's visitor shape: a generic visit constrained to the protocol.
protocol SeedViewVisitor {
    mutating func visit<Content: SeedView>(_ content: Content)
}

/// The few lines of adapter code a protocol needs: find the protocol once, open the value as
/// its existential, and let Swift open that into a generic parameter.
enum SeedViewProtocol {
    static let descriptor = try? ProtocolDescriptor((any SeedView).self)

    static func visit<Visitor: SeedViewVisitor>(_ value: Any, with visitor: inout Visitor) -> Bool {
        guard let view = descriptor?.open(value, as: (any SeedView).self) else { return false }
        visitor.visit(view)
        return true
    }
}

/// Records the concrete type and its body type.
struct TypeRecordingVisitor: SeedViewVisitor {
    var visitedType: String?
    var bodyType: String?

    mutating func visit<Content: SeedView>(_ content: Content) {
        visitedType = String(reflecting: Content.self)
        bodyType = String(reflecting: Content.Body.self)
    }
}

// MARK: - 2. A component catalog of protocol compositions, in the style of SAP Fiori.

protocol TitleComponent { var title: String { get } }
protocol SubtitleComponent { var subtitle: String { get } }
protocol ActionComponent { var actionLabel: String { get } }

struct ObjectHeader: TitleComponent, SubtitleComponent, ActionComponent {
    var title: String
    var subtitle: String
    var actionLabel: String
    var badge: Int
}

struct ContactCell: TitleComponent, SubtitleComponent {
    var title: String
    var subtitle: String
}

struct ActionButton: TitleComponent, ActionComponent {
    var title: String
    var actionLabel: String
}

struct CardView: TitleComponent, SubtitleComponent, ActionComponent {
    var title: String
    var subtitle: String
    var actionLabel: String
    var footnote: String?
}

// MARK: - 3. @Subview-style discovery of stored properties of a marker protocol's types.

protocol SubviewMarker: AnyObject {}

final class LabelView: SubviewMarker {
    var text = "label"
}

final class ImageView: SubviewMarker {
    var name = "image"
}

class BaseScreen {
    var header = LabelView()
    var count = 0
}

final class ProfileScreen: BaseScreen {
    var avatar = ImageView()
    var name = "profile"
    var caption = LabelView()
    var optionalView: LabelView? = nil
}

// MARK: - 4. A typed route tree in the style of ScreenUI.

protocol Screen {}
protocol TabScreen: Screen {}
protocol NavigationScreen: Screen {}
protocol DetailScreen: Screen {}

struct Item {}
struct Detail<Model>: DetailScreen {}
struct Navigation<Root: Screen>: NavigationScreen {}
struct Tab<Root: Screen>: TabScreen {}

@Suite("Seed scenarios")
struct SeedScenarioTests {
    @Test("1. An Any holding a view resolves through a visitor to its concrete type and Body, without AnyView")
    func engineViewVisitor() throws {
        let views: [Any] = [SeedText(text: "hi"), SeedStack(content: SeedText(text: "nested"))]
        var visitor = TypeRecordingVisitor()
        #expect(SeedViewProtocol.visit(views[1], with: &visitor))
        #expect(visitor.visitedType == String(reflecting: SeedStack<SeedText>.self))
        #expect(visitor.bodyType == String(reflecting: SeedText.self))
        // The associated type is also readable from the conformance alone.
        let descriptor = try #require(SeedViewProtocol.descriptor)
        let conformance = try #require(descriptor.conformance(of: type(of: views[1])))
        #expect(conformance.associatedType(named: "Body") == TypeMetadata(SeedText.self))
        #expect(!SeedViewProtocol.visit(42, with: &visitor))
    }

    @Test("2. Every component conforming to a composition, with its properties and their types")
    func componentCatalog() throws {
        let title = try ProtocolDescriptor((any TitleComponent).self)
        var catalog: [String: [String]] = [:]
        for type in title.conformingTypes() {
            guard try type.conforms(to: (any TitleComponent & SubtitleComponent & ActionComponent).self) else {
                continue
            }
            catalog[type.name] = try type.fields.map { "\($0.name): \($0.type?.name ?? "?")" }
        }
        #expect(Set(catalog.keys) == [String(reflecting: ObjectHeader.self), String(reflecting: CardView.self)])
        #expect(
            catalog[String(reflecting: ObjectHeader.self)] == [
                "title: Swift.String", "subtitle: Swift.String", "actionLabel: Swift.String", "badge: Swift.Int",
            ]
        )
        // The oracle: exactly the catalog types cast to the composition.
        for type in [ObjectHeader.self, ContactCell.self, ActionButton.self, CardView.self] as [Any.Type] {
            #expect(
                (catalog[String(reflecting: type)] != nil)
                    == (type is any (TitleComponent & SubtitleComponent & ActionComponent).Type)
            )
        }
    }

    @Test(
        "3. Stored properties of a marker protocol's types, superclasses included, read through offsets; same as Mirror"
    )
    func subviewDiscovery() throws {
        let screen = ProfileScreen()
        let marker = try ProtocolDescriptor((any SubviewMarker).self)
        var found: [(String, AnyObject)] = []
        for field in try TypeMetadata(ProfileScreen.self).fields {
            guard let type = field.type?.type, marker.isConformed(by: type) else { continue }
            found.append((field.name, try field.value(in: screen, as: AnyObject.self)))
        }
        // The Subviews library's Mirror walk, resolveAllEnclosedProperties().
        var mirrored: [(String, AnyObject)] = []
        var mirror: Mirror? = Mirror(reflecting: screen)
        var levels: [Mirror] = []
        while let current = mirror {
            levels.append(current)
            mirror = current.superclassMirror
        }
        for level in levels.reversed() {
            for child in level.children {
                if let subview = child.value as? any SubviewMarker { mirrored.append((child.label ?? "", subview)) }
            }
        }
        #expect(found.map(\.0) == ["header", "avatar", "caption"])
        #expect(found.map(\.0) == mirrored.map(\.0))
        #expect(zip(found, mirrored).allSatisfy { $0.1 === $1.1 })
    }

    @Test("4. The chain of screens of Tab<Navigation<Detail<Item>>> and each screen's protocols")
    func routeTree() throws {
        let screen = try ProtocolDescriptor((any Screen).self)
        var chain: [(String, [String])] = []
        var current: TypeMetadata? = TypeMetadata(Tab<Navigation<Detail<Item>>>.self)
        while let type = current, screen.isConformed(by: type.type!) {
            let protocols = type.conformances.map(\.name).filter { $0.hasSuffix("Screen") && $0 != "Screen" }
            chain.append((type.descriptor?.name ?? type.name, protocols))
            current = type.genericArguments.first?.type
        }
        #expect(chain.map(\.0) == ["Tab", "Navigation", "Detail"])
        #expect(chain.map(\.1) == [["TabScreen"], ["NavigationScreen"], ["DetailScreen"]])
    }
}
