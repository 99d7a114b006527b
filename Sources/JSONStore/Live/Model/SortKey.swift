/// An item's place in sorted results: its sort value, then its id (by bytes).
struct SortKey: Comparable, Hashable, Sendable {
    /// What an item is sorted by.
    enum Value: Sendable {
        /// A member's JSON value (`nil` when the item has no such member).
        case json(JSONValue?)
        /// A value of the decoded element, compared by `order` (`nil` when the item does
        /// not decode). Indirect, so the common case keeps every key small.
        indirect case typed((any Sendable)?, ValueOrder)
        /// In grouped results: the group first, then the query's own order. Indirect too.
        indirect case grouped(GroupPlace)
    }

    // The id first: a key is in every results node, and this order packs it in 40 bytes.
    let id: String
    let primary: Value
    let descending: Bool

    init(primary: Value, id: String, descending: Bool) {
        self.id = id
        self.primary = primary
        self.descending = descending
    }

    /// The key before every key of the group `value`: where its section starts.
    static func start(ofGroup value: JSONValue?, descending: Bool) -> SortKey {
        SortKey(
            primary: .grouped(GroupPlace(group: value, descending: descending, inner: nil)),
            id: "", descending: false)
    }

    /// The group of a key in grouped results (`nil` inside when the item lacks the member).
    var group: GroupPlace? {
        if case .grouped(let place) = primary { return place }
        return nil
    }

    /// Calls `body` with the key of each row of this key's item, in order: in grouped
    /// results one per section the item is in (this key, its first row, first), else this
    /// key alone.
    func forEachRow(_ body: (SortKey) -> Void) {
        guard case .grouped(let place) = primary, !place.elements.isEmpty else {
            return body(self)
        }
        for element in place.elements {
            var row = place
            row.group = element
            body(SortKey(primary: .grouped(row), id: id, descending: descending))
        }
    }

    /// The keys of this key's item's rows (see `forEachRow`).
    var rows: [SortKey] {
        var rows: [SortKey] = []
        forEachRow { rows.append($0) }
        return rows
    }

    static func < (a: SortKey, b: SortKey) -> Bool { order(a, b) == .less }

    static func == (a: SortKey, b: SortKey) -> Bool {
        UTF8Key.equal(a.id, b.id) && order(a, b) == .equal
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(UTF8Key(id))
    }

    private static func order(_ a: SortKey, _ b: SortKey) -> JSONOrdering.Result {
        var (x, y) = (a.primary, b.primary)
        if case .grouped(let g) = x, case .grouped(let h) = y {
            switch JSONOrdering.compare(g.group, h.group) {
            case .less: return g.descending ? .greater : .less
            case .greater: return g.descending ? .less : .greater
            case .equal:
                // A group's start comes before each of its keys.
                guard let gi = g.inner, let hi = h.inner else {
                    return g.inner == nil ? (h.inner == nil ? .equal : .less) : .greater
                }
                (x, y) = (gi, hi)
            }
        }
        switch compare(x, y) {
        case .less: return a.descending ? .greater : .less
        case .greater: return a.descending ? .less : .greater
        case .equal:
            return UTF8Key.less(a.id, b.id) ? .less : UTF8Key.less(b.id, a.id) ? .greater : .equal
        }
    }

    private static func compare(_ a: Value, _ b: Value) -> JSONOrdering.Result {
        switch (a, b) {
        case (.json(let x), .json(let y)):
            return JSONOrdering.compare(x, y)
        case (.typed(let x?, let order), .typed(let y?, _)):
            return JSONOrdering.order(order.compare(x, y))
        case (.typed(nil, _), .typed(nil, _)):
            return .equal
        case (.typed(nil, _), .typed):
            return .less  // no value sorts first, as a missing member does
        case (.typed, .typed(nil, _)):
            return .greater
        default:
            return .equal  // one query never mixes them
        }
    }
}

/// Where a key of grouped results is: its group's value, the direction groups go in, and
/// its place by the query's own order inside the group (`nil` for the group's start).
///
/// It also carries the item's values of the members the query aggregates, so the results
/// can take them out of the group's summary when the item leaves, whatever it holds then;
/// and, when the item is in several groups (its member is an array), all of them.
struct GroupPlace: Sendable {
    var group: JSONValue?
    let descending: Bool
    let inner: SortKey.Value?
    var aggregated: [JSONNumber?] = []
    /// The groups of an item in more than one, in order (`group` is one of them); empty
    /// for an item in one group.
    var elements: [JSONValue?] = []
}

/// The order of a key path of the decoded element type: how to get the value from an
/// element, and how to compare two.
struct ValueOrder: Sendable {
    /// The value to sort by, from the decoded element when there is one of the right type,
    /// else from the item decoded for the purpose; `nil` when it does not decode.
    let value: @Sendable (Item, (any Sendable)?) -> (any Sendable)?
    /// Compares two values: negative, zero or positive.
    let compare: @Sendable (any Sendable, any Sendable) -> Int
}
