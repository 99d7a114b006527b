/// The name a person probably meant when they typed one that is not allowed: the same
/// name in another case, or the nearest by edit distance (a letter added, removed,
/// changed, or two swapped), if it is near enough to be a slip of the hand.
enum NameSuggestion {
    /// The name of `names` that `typed` is a slip for, or `nil`.
    static func closest<Names: Sequence<String>>(to typed: String, among names: Names)
        -> String?
    {
        let folded = typed.lowercased()
        let typedScalars = Array(typed.unicodeScalars)
        // A name of 1-3 letters allows one slip, longer names two.
        let allowed = typedScalars.count <= 3 ? 1 : 2
        var best: (name: String, distance: Int)?
        for name in names where name != typed {
            if name.lowercased() == folded { return name }
            let distance = Self.distance(typedScalars, Array(name.unicodeScalars), limit: allowed)
            guard distance <= allowed else { continue }
            if best == nil || distance < best!.distance
                || (distance == best!.distance && UTF8Key.less(name, best!.name))
            {
                best = (name, distance)
            }
        }
        return best?.name
    }

    /// The optimal string alignment distance of `a` and `b` (Levenshtein's, with a swap
    /// of two neighbours one edit), or `limit + 1` once it is certain to exceed `limit`.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            var rowBest = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d = min(d, before[j - 2] + 1)
                }
                current[j] = d
                rowBest = min(rowBest, d)
            }
            if rowBest > limit { return limit + 1 }
            (before, previous, current) = (previous, current, before)
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
