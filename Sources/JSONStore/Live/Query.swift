/// Which items a live result holds, and in what order.
///
/// For example:
///
/// ```swift
/// let urgent = Query.all
///     .filter { $0["tags"]?.arrayValue?.contains("urgent") == true }
///     .sorted(by: "priority", descending: true)
/// ```
public struct Query: Sendable {
    /// The order of results.
    public enum Order: Sendable, Equatable {
        /// By id, ascending, comparing the ids' UTF-8 bytes.
        case id
        /// By the value of a top-level member, ties broken by id ascending. Items without
        /// the member come first when ascending.
        case field(String, descending: Bool)
    }

    /// Every item, sorted by id.
    public static let all = Query()

    /// The predicates an item must all satisfy.
    var predicates: [@Sendable (Item) -> Bool] = []
    /// The order of results.
    public private(set) var order: Order = .id

    public init() {}

    /// This query, keeping only items for which `predicate` is true.
    public func filter(_ predicate: @escaping @Sendable (Item) -> Bool) -> Query {
        var query = self
        query.predicates.append(predicate)
        return query
    }

    /// This query, keeping only items whose member `field` equals `value`.
    ///
    /// A string `value` also matches a number or Boolean with that text (`priority=2`
    /// matches `"priority": 2`), which is what a person typing on a command line means.
    public func filter(field: String, equals value: JSONValue) -> Query {
        filter { item in
            guard let member = item[field] else { return false }
            if member == value { return true }
            if case .string(let text) = value {
                switch member {
                case .number(let n): return n.text == text || Double(text) == n.doubleValue
                case .bool(let b): return String(b) == text
                case .null: return text == "null"
                default: return false
                }
            }
            return false
        }
    }

    /// This query, sorted by the member `field`.
    public func sorted(by field: String, descending: Bool = false) -> Query {
        var query = self
        query.order = .field(field, descending: descending)
        return query
    }

    /// This query, sorted by id.
    public func sortedByID() -> Query {
        var query = self
        query.order = .id
        return query
    }

    /// The items of `items` this query selects, in its order: the one-off counterpart of
    /// live results, for a listing of `load()`.
    ///
    /// - Complexity: O(n log n).
    public func apply<S: Sequence>(to items: S) -> [Item] where S.Element == Item {
        items.filter(includes).sorted { sortKey($0) < sortKey($1) }
    }

    /// Whether `item` belongs in the results.
    public func includes(_ item: Item) -> Bool {
        predicates.allSatisfy { $0(item) }
    }

    /// The position key of `item` in the results.
    func sortKey(_ item: Item) -> SortKey {
        switch order {
        case .id: SortKey(primary: nil, id: item.id, descending: false)
        case .field(let name, let descending):
            SortKey(primary: item[name], id: item.id, descending: descending)
        }
    }
}

/// An item's place in sorted results: its sort value, then its id (by bytes).
struct SortKey: Comparable, Hashable, Sendable {
    let primary: JSONValue?
    let id: String
    let descending: Bool

    static func < (a: SortKey, b: SortKey) -> Bool {
        switch JSONOrdering.compare(a.primary, b.primary) {
        case .less: return !a.descending
        case .greater: return a.descending
        case .equal: return UTF8Key.less(a.id, b.id)
        }
    }

    static func == (a: SortKey, b: SortKey) -> Bool {
        UTF8Key.equal(a.id, b.id) && JSONOrdering.compare(a.primary, b.primary) == .equal
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(UTF8Key(id))
    }
}

/// A total order on JSON values for sorting: missing < null < false < true < numbers <
/// strings < arrays < objects; numbers by value, strings by their UTF-8 bytes (which is
/// code point order), arrays element by element, objects by their text.
enum JSONOrdering {
    enum Result { case less, equal, greater }

    static func compare(_ a: JSONValue?, _ b: JSONValue?) -> Result {
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

    private static func order(_ comparison: Int) -> Result {
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
