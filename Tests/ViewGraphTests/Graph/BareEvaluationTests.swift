// BareEvaluationTests.swift
//
// The benchmarks' baseline evaluates the tree a graph builds: the same views, each body once,
// and keeps nothing (issue 30). The graph's node count and the bodies' own counters are the
// checks.

import Testing
@_spi(Baseline) import ViewGraph

/// Counts the evaluations of its body, per title.
@MainActor
enum BodyCounter {
    static var evaluations: [String: Int] = [:]
}

struct CountedRow: View {
    var title: String
    @State var expanded = false
    var body: some View {
        BodyCounter.evaluations[title, default: 0] += 1
        return Stack(.horizontal) {
            Text(expanded ? "expanded \(title)" : title)
            if title.hasSuffix("1") {
                Text("odd").padding(1)
            }
        }
    }
}

struct Framed: ViewModifier {
    @State var open = false
    func body(content: Content) -> some View {
        Group {
            Text(open ? "open" : "closed")
            content
        }
    }
}

struct BareTree: View {
    var titles: [String]
    var body: some View {
        Stack(.vertical, spacing: 2) {
            Text("header").className("title")
            ForEach(titles, id: \.self) { title in CountedRow(title: title) }
            DynamicView(CountedRow(title: "dynamic"))
            DynamicView(DynamicView(Text("nested dynamic")))
            DynamicView(42)
            AnyView(CountedRow(title: "erased"))
            Text("framed").modifier(Framed())
            Button("tap") {}
            EmptyView()
        }
    }
}

@MainActor
@Suite(.serialized)
struct BareEvaluationTests {
    @Test func evaluatesTheViewsAGraphBuilds() {
        let tree = BareTree(titles: (0..<25).map { "row \($0)" })
        BodyCounter.evaluations = [:]
        let graph = ViewGraph(root: tree)
        let built = BodyCounter.evaluations
        BodyCounter.evaluations = [:]
        let count = BareEvaluation.evaluate(tree)
        #expect(count == graph.nodeCount)
        #expect(count > 100)
        // Each body once, in both, for the same views.
        #expect(BodyCounter.evaluations == built)
        #expect(built.count == 27)
        #expect(built.values.allSatisfy { $0 == 1 })
    }

    @Test func keepsNoState() {
        // State reads its initial value: the bare evaluation installs nothing, and a second
        // evaluation of the same tree evaluates every body again.
        let tree = BareTree(titles: ["a", "b"])
        BodyCounter.evaluations = [:]
        let first = BareEvaluation.evaluate(tree)
        let second = BareEvaluation.evaluate(tree)
        #expect(first == second)
        #expect(BodyCounter.evaluations["a"] == 2)
        #expect(BodyCounter.evaluations["erased"] == 2)
    }

    @Test func stopsAtTheDepthAsked() {
        // The root (0), the stack (1), the tuple (2), the ForEach (3): the rows are made at
        // depth 4 and counted, their bodies not evaluated.
        let tree = BareTree(titles: (0..<10).map { "row \($0)" })
        BodyCounter.evaluations = [:]
        let shallow = BareEvaluation.evaluate(tree, depth: 4)
        #expect(BodyCounter.evaluations["row 3"] == nil)
        #expect(BodyCounter.evaluations["row 3", default: 0] == 0)
        // Above depth 4: the root, the stack, the tuple; the tuple's nine children at depth 3
        // (the header's modifier, the ForEach, the dynamic row, the nested dynamic text, the
        // invalid view for 42, the AnyView, the framed text's modifier, the button, the empty
        // view). At depth 4, made and not evaluated: the header text, ten rows, the dynamic
        // row's stack, the erased row, the modifier's body, the button's label.
        #expect(shallow == 3 + 9 + 15)
        #expect(shallow < BareEvaluation.evaluate(tree))
        #expect(BareEvaluation.evaluate(tree, depth: 0) == 1)
        #expect(BareEvaluation.evaluate(tree, depth: -5) == 1)
    }

    @Test func aViewThatContainsItselfStopsAtTheLimit() {
        #expect(BareEvaluation.evaluate(SelfContaining()) == BareEvaluation.maximumDepth + 1)
    }
}

/// A view whose body contains itself without end.
struct SelfContaining: View {
    var body: some View { SelfContaining() }
}
