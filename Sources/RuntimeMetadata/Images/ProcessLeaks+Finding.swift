// ProcessLeaks+Finding.swift
//
// What the leaked blocks of a held process are (ABI/ProcessLeakScan.swift): which are Swift
// objects (class instances named as the census names them, closure contexts, boxes), the
// strongly connected components among them, and whose row each block's bytes count in.

extension ProcessLeaks {
    /// What a leaked block is.
    enum Node: Equatable {
        /// A class instance, by its type's name.
        case instance(String)
        /// A closure context or a box: a Swift heap object that is no class instance.
        case heapObject(String)
        /// Any other block: memory `malloc` gave, or an object of a kind not named.
        case other

        var name: String? {
            switch self {
            case .instance(let name), .heapObject(let name): name
            case .other: nil
            }
        }
    }

    /// Finds the leaks of a process: its heap searched with every thread held, and the blocks
    /// found named after the hold.
    /// - Parameter process: The process, with its images.
    /// - Throws: ``ProcessReadFailure`` from the search.
    init(of process: RemoteProcess) throws(ProcessReadFailure) {
        let scan = try ProcessHeapScan.findLeaks(processID: process.processID)
        guard scan.startTime == process.startTime else {
            throw ProcessReadFailure(
                kind: .exited,
                systemError: 0,
                message: "process \(process.processID) exited since it was read, and its pid names another process"
            )
        }
        let nodes = Self.nodes(of: scan.blocks, in: process)
        // The blocks are named after the hold, from the process's memory: a process that died or
        // replaced its program meanwhile named none of them rightly.
        if let change = scan.before.change(processID: process.processID) { throw change }
        let cycles = Self.cycles(of: scan, nodes: nodes)
        let rows = Self.rows(of: scan, nodes: nodes, cycles: cycles)
        self.init(
            processID: process.processID,
            rows: rows,
            cycles: cycles.map { cycle in
                Cycle(members: cycle.map { Member(typeName: nodes[$0].name ?? "", address: scan.blocks[$0].address) })
            },
            held: .nanoseconds(Int64(clamping: scan.heldNanoseconds)),
            liveBlockCount: scan.liveBlocks,
            edgeCount: scan.liveEdges,
            heapBytesRead: scan.heapBytesRead,
            rootBytesRead: scan.rootBytesRead,
            graphBytes: scan.graphBytes,
            threadCount: scan.threadCount
        )
    }

    /// What each block is: a class instance when its header reads as a live object's, its first
    /// word is a class of the process and its size fits the class (as the census decides), a
    /// closure context or a box by its metadata's kind, and otherwise no Swift object.
    private static func nodes(of blocks: [LeakedBlock], in process: RemoteProcess) -> [Node] {
        let copies = process.metadataCopies()
        // Each distinct first word decided once: a class with the sizes its instances have, or
        // the node every block with that word is.
        enum Verdict {
            case instance(name: String, sizes: ClosedRange<Int>)
            case node(Node)
        }
        var decided: [UInt: Verdict] = [:]
        func verdict(for metadata: UInt) -> Verdict {
            if let known = decided[metadata] { return known }
            let verdict: Verdict =
                if let facts = copies.classFacts(at: metadata) {
                    .instance(
                        name: ProcessCensus.name(of: metadata, facts: facts, copies: copies),
                        sizes: ProcessCensus.sizes(facts)
                    )
                } else {
                    switch copies.heapLocalVariableKind(at: metadata) {
                    case 0x400: .node(.heapObject("(closure context)"))
                    case 0x500: .node(.heapObject("(box)"))
                    default: .node(.other)
                    }
                }
            decided[metadata] = verdict
            return verdict
        }
        return blocks.map { block in
            guard block.looksLikeObject else { return .other }
            switch verdict(for: block.metadata) {
            case .instance(let name, let sizes): return sizes.contains(block.size) ? .instance(name) : .other
            case .node(let node): return node
            }
        }
    }

    /// The cycles: the strongly connected components (Tarjan's, without recursion) with two
    /// blocks or more, or one that refers to itself, and at least one Swift object; each as its
    /// Swift objects' indices by address, sorted by the first one's name, then address.
    private static func cycles(of scan: LeakScanResult, nodes: [Node]) -> [[Int]] {
        let count = scan.blocks.count
        var index = [Int](repeating: -1, count: count)
        var lowLink = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var next = 0
        var components: [[Int]] = []
        // Each frame: a block and the position of its next edge.
        var frames: [(block: Int, edge: Int)] = []
        for root in 0..<count where index[root] < 0 {
            frames.append((root, scan.blocks[root].edges.lowerBound))
            index[root] = next
            lowLink[root] = next
            next += 1
            stack.append(root)
            onStack[root] = true
            while let frame = frames.last {
                let block = frame.block
                if frame.edge < scan.blocks[block].edges.upperBound {
                    frames[frames.count - 1].edge += 1
                    let target = scan.edges[frame.edge]
                    if index[target] < 0 {
                        index[target] = next
                        lowLink[target] = next
                        next += 1
                        stack.append(target)
                        onStack[target] = true
                        frames.append((target, scan.blocks[target].edges.lowerBound))
                    } else if onStack[target] {
                        lowLink[block] = min(lowLink[block], index[target])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last { lowLink[parent.block] = min(lowLink[parent.block], lowLink[block]) }
                guard lowLink[block] == index[block] else { continue }
                var component: [Int] = []
                while let member = stack.popLast() {
                    onStack[member] = false
                    component.append(member)
                    if member == block { break }
                }
                let selfReferent = component.count == 1 && scan.blocks[block].edges.contains { scan.edges[$0] == block }
                guard component.count > 1 || selfReferent else { continue }
                let objects = component.filter { nodes[$0].name != nil }.sorted()
                if !objects.isEmpty { components.append(objects) }
            }
        }
        return components.sorted { first, second in
            let firstName = nodes[first[0]].name ?? "", secondName = nodes[second[0]].name ?? ""
            if firstName != secondName { return firstName.utf8.lexicographicallyPrecedes(secondName.utf8) }
            return scan.blocks[first[0]].address < scan.blocks[second[0]].address
        }
    }

    /// The rows: each leaked class instance counted in its type's row with its block, its side
    /// table, and the blocks that are no class instance it reaches first (through such blocks
    /// only), the instances taken in cycle order, then by address; then the closure contexts
    /// and boxes that no instance reached, in rows of their own, in the same way.
    private static func rows(of scan: LeakScanResult, nodes: [Node], cycles: [[Int]]) -> [Row] {
        let sideTables = Set(scan.blocks.lazy.filter { $0.sideTable != 0 }.map(\.sideTable))
        var claimed = scan.blocks.map { sideTables.contains($0.address) }
        var order: [Int] = []
        var ordered = Set<Int>()
        for member in cycles.joined() where ordered.insert(member).inserted { order.append(member) }
        for (block, node) in nodes.enumerated() where !ordered.contains(block) && node.name != nil {
            order.append(block)
        }
        var counts: [String: (count: Int, bytes: Int)] = [:]
        // Instances first, then the closure contexts and boxes no instance reached.
        for pass in 0..<2 {
            for block in order where !claimed[block] {
                let node = nodes[block]
                guard let name = node.name else { continue }
                if pass == 0, case .heapObject = node { continue }
                claimed[block] = true
                var bytes = scan.blocks[block].size + scan.blocks[block].sideTableSize
                var pending = [block]
                while let from = pending.popLast() {
                    for edge in scan.blocks[from].edges {
                        let target = scan.edges[edge]
                        guard !claimed[target] else { continue }
                        if case .instance = nodes[target] { continue }
                        claimed[target] = true
                        bytes += scan.blocks[target].size + scan.blocks[target].sideTableSize
                        pending.append(target)
                    }
                }
                counts[name, default: (0, 0)].count += 1
                counts[name, default: (0, 0)].bytes += bytes
            }
        }
        return counts.map { Row(typeName: $0.key, count: $0.value.count, bytes: $0.value.bytes) }.sorted {
            $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.typeName.utf8.lexicographicallyPrecedes($1.typeName.utf8)
        }
    }
}
