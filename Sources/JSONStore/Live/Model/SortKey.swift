/// An item's place in sorted results: its sort value, then its id (by bytes).
struct SortKey: Comparable, Hashable, Sendable {
    /// What an item is sorted by.
    enum Value: Sendable {
        /// A member's JSON value (`nil` when the item has no such member).
        case json(JSONValue?)
        /// A value of the decoded element, compared by `order` (`nil` when the item does
        /// not decode). Indirect, so the common case keeps every key small.
        indirect case typed((any Sendable)?, ValueOrder)
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

    static func < (a: SortKey, b: SortKey) -> Bool {
        switch compare(a.primary, b.primary) {
        case .less: return !a.descending
        case .greater: return a.descending
        case .equal: return UTF8Key.less(a.id, b.id)
        }
    }

    static func == (a: SortKey, b: SortKey) -> Bool {
        UTF8Key.equal(a.id, b.id) && compare(a.primary, b.primary) == .equal
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(UTF8Key(id))
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
            return .equal  // one query never mixes the two
        }
    }
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
