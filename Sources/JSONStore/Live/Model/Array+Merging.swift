extension Array {
    /// Two arrays, each sorted by `less` and with no element in both, as one sorted array.
    ///
    /// - Complexity: O(`a.count + b.count`).
    package static func merging(
        _ a: [Element], _ b: [Element], by less: (Element, Element) -> Bool
    ) -> [Element] {
        guard !b.isEmpty else { return a }
        guard !a.isEmpty else { return b }
        var merged: [Element] = []
        merged.reserveCapacity(a.count + b.count)
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && less(a[i], b[j])) {
                merged.append(a[i])
                i += 1
            } else {
                merged.append(b[j])
                j += 1
            }
        }
        return merged
    }
}
