import JSONStore

/// `f`: each value of a field with how many items have it, live, from an observation
/// grouped by the field (the library keeps the counts per change); Enter on a value
/// filters the list to it.
struct CountsView {
    let field: String
    /// The counts, in value order; empty until the first results come.
    private(set) var counts: [CountBy.Count] = []
    private(set) var cursor = 0
    private(set) var loaded = false

    init(field: String) {
        self.field = field
    }

    /// What a key asks of the view.
    enum Outcome: Equatable {
        case stay
        /// Back to the list, filtered by this text (`status=done`), or not filtered.
        case close(filter: String?)
    }

    /// Takes the counts of the latest results.
    mutating func show(_ counts: [CountBy.Count]) {
        self.counts = counts
        loaded = true
        cursor = max(0, min(cursor, counts.count - 1))
    }

    mutating func handle(_ key: Key, page: Int) -> Outcome {
        switch key {
        case .up, .character("k"): cursor = max(0, cursor - 1)
        case .down, .character("j"): cursor = max(0, min(counts.count - 1, cursor + 1))
        case .pageUp: cursor = max(0, cursor - page)
        case .pageDown: cursor = max(0, min(counts.count - 1, cursor + page))
        case .home, .character("g"): cursor = 0
        case .end, .character("G"): cursor = max(0, counts.count - 1)
        case .escape, .character("q"), .character("f"): return .close(filter: nil)
        case .enter:
            guard counts.indices.contains(cursor) else { return .close(filter: nil) }
            return .close(filter: Self.condition(field, counts[cursor].value))
        default: break
        }
        return .stay
    }

    /// The filter that keeps the items whose `field` is `value`: `status=done`,
    /// `status="in progress"`, `!status` for the items lacking it.
    static func condition(_ field: String, _ value: JSONValue?) -> String {
        guard let value else { return "!" + field }
        let text: String
        switch value {
        case .string(let s): text = s
        case .null: text = "null"
        default: text = String(decoding: JSONWriter.compact(value), as: UTF8.self)
        }
        return field + "=" + (text.contains(" ") ? "\"\(text)\"" : text)
    }
}
