// ArrayAlignment.swift
//
// The alignment of two arrays' elements for the diff: the elements removed from the old array
// and inserted into the new one by a shortest edit script (E. W. Myers, "An O(ND) Difference
// Algorithm and Its Variations", 1986, the greedy forward search), after the common prefix and
// suffix are set aside. The search stops at a bound on the script's length; the caller then
// compares the remaining middle by position, as the diff did before arrays were aligned.

/// A shortest edit script between two sequences, as the removed and inserted indices.
struct ArrayAlignment: Equatable {
    /// The old sequence's indices whose elements are removed, ascending.
    var removed: [Int]
    /// The new sequence's indices whose elements are inserted, ascending.
    var inserted: [Int]

    /// The longest edit script searched for, in removals plus insertions, after the common
    /// prefix and suffix: the search costs at most about `(n + m) × bound` comparisons, and
    /// keeps `bound²` integers to trace the script back.
    static let maximumEdits = 128

    /// Aligns two sequences of `oldCount` and `newCount` elements.
    /// - Parameters:
    ///   - oldCount: The old sequence's length.
    ///   - newCount: The new sequence's length.
    ///   - maximumEdits: The longest script searched for, after the common prefix and suffix.
    ///   - commonEnds: The lengths of the common prefix and suffix, when the caller knows them
    ///     (arrays of one length compared by position first); found here otherwise.
    ///   - equal: Whether the old sequence's element at the first index equals the new one's at
    ///     the second.
    /// - Returns: A shortest script, or `nil` when every script is longer than `maximumEdits`.
    static func align(
        oldCount: Int,
        newCount: Int,
        maximumEdits: Int = maximumEdits,
        commonEnds: (prefix: Int, suffix: Int)? = nil,
        equal: (Int, Int) -> Bool
    ) -> ArrayAlignment? {
        let (prefix, suffix) = commonEnds ?? Self.commonEnds(oldCount: oldCount, newCount: newCount, equal: equal)
        let middleOld = oldCount - prefix - suffix
        let middleNew = newCount - prefix - suffix
        guard
            let middle = shortestScript(
                oldCount: middleOld,
                newCount: middleNew,
                maximumEdits: maximumEdits,
                equal: { equal($0 + prefix, $1 + prefix) }
            )
        else { return nil }
        return ArrayAlignment(
            removed: middle.removed.map { $0 + prefix },
            inserted: middle.inserted.map { $0 + prefix }
        )
    }

    /// The lengths of the common prefix and the common suffix of two sequences, the suffix
    /// taken from what the prefix leaves.
    /// - Parameters:
    ///   - oldCount: The old sequence's length.
    ///   - newCount: The new sequence's length.
    ///   - equal: Whether the old sequence's element at the first index equals the new one's at
    ///     the second.
    /// - Returns: The two lengths.
    static func commonEnds(oldCount: Int, newCount: Int, equal: (Int, Int) -> Bool) -> (prefix: Int, suffix: Int) {
        var prefix = 0
        var suffix = 0
        while prefix < oldCount, prefix < newCount, equal(prefix, prefix) { prefix += 1 }
        while suffix < oldCount - prefix, suffix < newCount - prefix,
            equal(oldCount - 1 - suffix, newCount - 1 - suffix)
        {
            suffix += 1
        }
        return (prefix, suffix)
    }

    /// Myers's greedy search for a shortest script, forward, keeping each step's furthest
    /// reaching paths to trace the script back. Paths stay inside the edit graph: a removal
    /// needs an old element left, an insertion a new one.
    private static func shortestScript(
        oldCount n: Int,
        newCount m: Int,
        maximumEdits: Int,
        equal: (Int, Int) -> Bool
    ) -> ArrayAlignment? {
        if n == 0 || m == 0 {
            guard n + m <= maximumEdits else { return nil }
            return ArrayAlignment(removed: Array(0..<n), inserted: Array(0..<m))
        }
        let limit = min(n + m, maximumEdits)
        // furthest[k + offset]: the furthest old index reached on diagonal k (x - y = k), or -1
        // where no path of this many edits reaches the diagonal.
        let offset = limit + 1
        var furthest = [Int](repeating: -1, count: 2 * limit + 3)
        // Each step's furthest paths before the step, diagonals -d...d, for the trace back.
        var trace: [[Int]] = []
        for d in 0...limit {
            let before = Array(furthest[(offset - d)...(offset + d)])
            trace.append(before)
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if d == 0 {
                    x = 0
                } else if let edit = Self.edit(onto: k, step: d, before: before, oldCount: n, newCount: m) {
                    x = edit.x
                } else {
                    furthest[offset + k] = -1
                    continue
                }
                var y = x - k
                while x < n, y < m, equal(x, y) {
                    x += 1
                    y += 1
                }
                furthest[offset + k] = x
                if x == n, y == m {
                    return traceBack(trace, endX: n, endY: m, oldCount: n, newCount: m)
                }
            }
        }
        return nil
    }

    /// The edit of step `d` that reaches diagonal `k` furthest: an insertion from diagonal
    /// `k + 1` or a removal from diagonal `k - 1`, as Myers chooses (the insertion on a tie).
    /// - Parameters:
    ///   - k: The diagonal.
    ///   - d: The step, at least 1.
    ///   - before: The furthest paths before the step, diagonal `j` at index `j + d`.
    ///   - n: The old sequence's length.
    ///   - m: The new sequence's length.
    /// - Returns: Where the edit ends on the diagonal, before the snake, and whether it is an
    ///   insertion; `nil` when no edit inside the graph reaches the diagonal.
    private static func edit(
        onto k: Int,
        step d: Int,
        before: [Int],
        oldCount n: Int,
        newCount m: Int
    ) -> (x: Int, isInsertion: Bool)? {
        guard k >= -m, k <= n else { return nil }
        // From (x, y) on diagonal k + 1, an insertion to (x, y + 1): a new element must be left.
        var down = -1
        if k + 1 <= d - 1, before[k + 1 + d] >= 0, before[k + 1 + d] - (k + 1) < m { down = before[k + 1 + d] }
        // From (x, y) on diagonal k - 1, a removal to (x + 1, y): an old element must be left.
        var right = -1
        if k - 1 >= -(d - 1), before[k - 1 + d] >= 0, before[k - 1 + d] < n { right = before[k - 1 + d] + 1 }
        if down < 0, right < 0 { return nil }
        return down >= right ? (down, true) : (right, false)
    }

    /// The script whose last step reached `(endX, endY)`, from each step's furthest paths.
    private static func traceBack(
        _ trace: [[Int]],
        endX: Int,
        endY: Int,
        oldCount n: Int,
        newCount m: Int
    ) -> ArrayAlignment {
        var removed: [Int] = []
        var inserted: [Int] = []
        var x = endX
        var y = endY
        for d in stride(from: trace.count - 1, to: 0, by: -1) {
            let k = x - y
            guard let edit = edit(onto: k, step: d, before: trace[d], oldCount: n, newCount: m) else {
                preconditionFailure("ArrayAlignment: a traced diagonal has no edit")
            }
            // Back along the snake to where the step's edit ended, then over the edit.
            if edit.isInsertion {
                x = edit.x
                y = x - k - 1
                inserted.append(y)
            } else {
                x = edit.x - 1
                y = x - k + 1
                removed.append(x)
            }
        }
        return ArrayAlignment(removed: removed.reversed(), inserted: inserted.reversed())
    }
}
