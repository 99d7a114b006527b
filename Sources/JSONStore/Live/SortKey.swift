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

/// A total order on JSON values for sorting: missing < null < false < true < numbers <
/// strings < arrays < objects; numbers by value, strings by their UTF-8 bytes (which is
/// code point order), arrays element by element, objects by their text.
package enum JSONOrdering {
    package enum Result { case less, equal, greater }

    package static func compare(_ a: JSONValue?, _ b: JSONValue?) -> Result {
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb ? .less : .greater }
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return x == y ? .equal : (!x ? .less : .greater)
        case (.number(let x), .number(let y)):
            let (dx, dy) = (x.doubleValue, y.doubleValue)
            return dx < dy ? .less : (dy < dx ? .greater : .equal)
        case (.string(let x), .string(let y)): return order(UTF8Key.compare(x, y))
        case (.array(let x), .array(let y)):
            for (ex, ey) in zip(x, y) {
                let c = compare(ex, ey)
                if c != .equal { return c }
            }
            return x.count < y.count ? .less : (y.count < x.count ? .greater : .equal)
        case (.object, .object):
            return order(UTF8Key.compare(a!.description, b!.description))
        default: return .equal
        }
    }

    static func order(_ comparison: Int) -> Result {
        comparison < 0 ? .less : (comparison > 0 ? .greater : .equal)
    }

    private static func rank(_ value: JSONValue?) -> Int {
        switch value {
        case nil: 0
        case .null: 1
        case .bool: 2
        case .number: 3
        case .string: 4
        case .array: 5
        case .object: 6
        }
    }
}
