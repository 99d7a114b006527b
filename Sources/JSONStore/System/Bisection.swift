/// Binary search over positions, for every sorted thing that is not a `Collection` of its
/// keys (a tree node's keys or counts, a cache's records, a short list of sort keys).
enum Bisection {
    /// The first of positions `0..<count` where `holds` does: `holds` is false up to some
    /// position and true from there on (`count` when never).
    @inline(__always)
    static func first(of count: Int, where holds: (Int) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if holds(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
