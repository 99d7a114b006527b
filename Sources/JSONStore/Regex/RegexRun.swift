/// A pattern anchored at its start that is only a run of characters and sets, each
/// repeated a fixed or bounded number of times, where each one repeated a varying number
/// of times shares no character with the one after it: `^[a-z0-9]+$`,
/// `^[0-9]{4}-[0-9]{2}-[0-9]{2}T`, `^#[0-9a-fA-F]{6}$`, most of what schemas say.
///
/// Such a pattern matches in one greedy pass: taking fewer of a repeated set never lets
/// the next one match where it could not (they are disjoint), so there is nothing to
/// backtrack to. No stack, no step budget: linear in the text, nothing allocated.
struct RegexRun: Sendable {
    struct Step: Sendable {
        let set: RegexSet
        let min: Int
        let max: Int
        /// The set's ASCII members, bit `c` for code point `c`: most text is ASCII, and a
        /// bit is read without walking the set's ranges.
        let ascii: (low: UInt64, high: UInt64)

        init(set: RegexSet, min: Int, max: Int) {
            self.set = set
            self.min = min
            self.max = max
            var bits: (low: UInt64, high: UInt64) = (0, 0)
            for code in UInt32(0)..<128 where set.contains(code) {
                if code < 64 { bits.low |= 1 << code } else { bits.high |= 1 << (code - 64) }
            }
            ascii = bits
        }

        func contains(_ code: UInt32) -> Bool {
            if code < 64 { return ascii.low & (1 << code) != 0 }
            if code < 128 { return ascii.high & (1 << (code - 64)) != 0 }
            return set.contains(code)
        }
    }

    let steps: [Step]
    /// Whether the pattern ends with `$`: the run must reach the end of the text.
    let toEnd: Bool

    /// The run `node` is, or `nil` when it is anything else (an alternation, a group, a
    /// lookaround, a backreference, a repetition followed by a set it overlaps...).
    init?(_ node: RegexNode) {
        var items: [RegexNode]
        switch node {
        case .sequence(let list): items = list
        default: items = [node]
        }
        guard case .assertion(.start) = items.first else { return nil }
        items.removeFirst()
        var toEnd = false
        if case .assertion(.end) = items.last {
            toEnd = true
            items.removeLast()
        }
        var steps: [Step] = []
        for item in items {
            switch item {
            case .scalar(let value): steps.append(Step(set: .of([value...value]), min: 1, max: 1))
            case .set(let set): steps.append(Step(set: set, min: 1, max: 1))
            case .repetition(.scalar(let value), let min, let max, _):
                steps.append(Step(set: .of([value...value]), min: min, max: max ?? .max))
            case .repetition(.set(let set), let min, let max, _):
                steps.append(Step(set: set, min: min, max: max ?? .max))
            default:
                return nil
            }
        }
        for (step, next) in zip(steps, steps.dropFirst()) where step.min != step.max {
            guard Self.disjoint(step.set, next.set) else { return nil }
        }
        self.steps = steps
        self.toEnd = toEnd
    }

    /// Whether the pattern matches `text` (from its start).
    ///
    /// - Complexity: O(text.count × the sets' ranges).
    func matches<Text: RandomAccessCollection>(_ text: Text) -> Bool
    where Text.Element == UInt32 {
        var position = text.startIndex
        return steps.withUnsafeBufferPointer { steps in
            for step in steps.indices {
                var count = 0
                while count < steps[step].max, position != text.endIndex,
                    steps[step].contains(text[position])
                {
                    count += 1
                    position = text.index(after: position)
                }
                if count < steps[step].min { return false }
            }
            return !toEnd || position == text.endIndex
        }
    }

    /// Whether no code point is in both: only told of plain ranges (a negated set or a
    /// property is taken to overlap anything).
    private static func disjoint(_ a: RegexSet, _ b: RegexSet) -> Bool {
        guard !a.negated, !b.negated, a.properties.isEmpty, b.properties.isEmpty else {
            return false
        }
        return !a.ranges.contains { x in b.ranges.contains { y in x.overlaps(y) } }
    }
}
