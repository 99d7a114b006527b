/// The footer's notices until the next key: warnings (a field no item has) and what an
/// action did (an edit refused, items deleted), newest first. Several can come before a
/// key does (a warning at start, then an editor's failure): each is kept, up to a bound,
/// and counted beyond it.
struct Notices: Equatable {
    /// At most this many are kept; older ones are only counted.
    static let kept = 20

    /// The notices, newest first.
    private(set) var newestFirst: [String] = []
    /// How many older ones were dropped.
    private(set) var dropped = 0

    var isEmpty: Bool { newestFirst.isEmpty }
    var count: Int { newestFirst.count + dropped }
    var newest: String? { newestFirst.first }

    mutating func tell(_ notice: String) {
        newestFirst.insert(notice, at: 0)
        if newestFirst.count > Self.kept {
            newestFirst.removeLast()
            dropped += 1
        }
    }

    /// A key came: they have been seen.
    mutating func dismiss() {
        newestFirst = []
        dropped = 0
    }
}
