/// Which items a live result holds, and in what order.
///
/// A query speaks of members by name (what the command line types, and what works for
/// any observed type), or, for typed observation, of the decoded values themselves: a
/// predicate on `Todo` and an order by a key path of `Todo`. Ties are always broken by id.
///
/// For example:
///
/// ```swift
/// let urgent = Query.all
///     .filter { $0["tags"]?.arrayValue?.contains("urgent") == true }
///     .sorted(by: "priority", descending: true)
/// let open = Query.all
///     .filter { (todo: Todo) in todo.status != "done" }
///     .sorted(by: \Todo.priority, descending: true)
/// ```
///
/// A typed part evaluates the decoded element when the observation decodes that type
/// (no extra work); anywhere else (an observation of `Item` or of another type, `apply`)
/// it decodes the item for the purpose, and an item that does not decode fails the
/// predicate and sorts first.
public struct Query: Sendable {
    /// The order of results.
    public enum Order: Sendable, Equatable {
        /// By id, ascending, comparing the ids' UTF-8 bytes.
        case id
        /// By the value of a top-level member, ties broken by id ascending. Items without
        /// the member come first when ascending.
        case field(String, descending: Bool)
        /// By a key path of the decoded type (named by its description), or by a value
        /// computed from each item (named by the caller), ties broken by id ascending.
        /// Items that do not decode come first when ascending.
        case value(String, descending: Bool)
    }

    /// Every item, sorted by id.
    public static let all = Query()

    /// The predicates an item must all satisfy, given the item and, when the observation
    /// decodes it, its decoded element.
    var predicates: [@Sendable (Item, (any Sendable)?) -> Bool] = []
    /// The order of results.
    public private(set) var order: Order = .id
    /// With `.value`: how to get and compare the values.
    var valueOrder: ValueOrder?
    /// With `grouped(by:)`: the member the results are sectioned by.
    var grouping: Grouping?

    public init() {}

    /// This query, keeping only items for which `predicate` is true.
    public func filter(_ predicate: @escaping @Sendable (Item) -> Bool) -> Query {
        var query = self
        query.predicates.append { item, _ in predicate(item) }
        return query
    }

    /// This query, keeping only items whose value decoded as `T` satisfies `predicate`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let open = Query.all.filter { (todo: Todo) in todo.status != "done" }
    /// ```
    public func filter<T: Decodable & Sendable>(_ predicate: @escaping @Sendable (T) -> Bool)
        -> Query
    {
        var query = self
        query.predicates.append { item, decoded in
            if let value = decoded as? T { return predicate(value) }
            guard let value = try? item.decode(as: T.self) else { return false }
            return predicate(value)
        }
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
            if case .number(let a) = member, case .number(let b) = value {
                return JSONNumber.equalValues(a, b)  // 2 equals 2.0
            }
            if case .string(let text) = value {
                switch member {
                case .number(let n):
                    return JSONNumber(text: text).map { JSONNumber.equalValues(n, $0) } ?? false
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
        query.valueOrder = nil
        return query
    }

    /// This query, sorted by the value at `keyPath` of the items decoded as `T`, ties by
    /// id.
    ///
    /// For example:
    ///
    /// ```swift
    /// let byPriority = Query.all.sorted(by: \Todo.priority, descending: true)
    /// ```
    public func sorted<T: Decodable & Sendable, V: Comparable & Sendable>(
        by keyPath: KeyPath<T, V> & Sendable, descending: Bool = false
    ) -> Query {
        var query = self
        query.order = .value(String(describing: keyPath), descending: descending)
        query.valueOrder = ValueOrder(
            value: { item, decoded in
                if let element = decoded as? T { return element[keyPath: keyPath] }
                return (try? item.decode(as: T.self))?[keyPath: keyPath]
            },
            compare: { a, b in
                let (x, y) = (a as! V, b as! V)
                return x < y ? -1 : (y < x ? 1 : 0)
            })
        return query
    }

    /// This query, sorted by a value computed from each item with `value` and compared
    /// with `compare` (negative, zero or positive), ties by id.
    ///
    /// For orders a member name cannot say, such as several keys or nested members, as
    /// the command's `--sort -priority,owner.name`. `name` names the order in `order`.
    public func sorted<V: Sendable>(
        named name: String, by value: @escaping @Sendable (Item) -> V,
        comparing compare: @escaping @Sendable (V, V) -> Int
    ) -> Query {
        var query = self
        query.order = .value(name, descending: false)
        query.valueOrder = ValueOrder(
            value: { item, _ in value(item) },
            compare: { a, b in compare(a as! V, b as! V) })
        return query
    }

    /// This query, sorted by id.
    public func sortedByID() -> Query {
        var query = self
        query.order = .id
        query.valueOrder = nil
        return query
    }

    /// The items of `items` this query selects, in its order: the one-off counterpart of
    /// live results, for a listing of `load()`.
    ///
    /// - Complexity: O(n log n).
    public func apply<S: Sequence>(to items: S) -> [Item] where S.Element == Item {
        var selected = predicates.isEmpty ? Array(items) : items.filter(includes)
        if !ordersByValue {
            selected.sort { UTF8Key.less($0.id, $1.id) }  // one pass when sorted already
        } else {
            // Each key made once, not once a comparison.
            var keyed = selected.map { (key: sortKey($0), item: $0) }
            keyed.sort { $0.key < $1.key }
            selected = keyed.map(\.item)
        }
        return selected
    }

    /// Whether `item` belongs in the results.
    public func includes(_ item: Item) -> Bool {
        includes(item, decoded: nil)
    }

    /// Whether `item`, whose decoded element is `decoded` if the caller has one, belongs
    /// in the results.
    func includes(_ item: Item, decoded: (any Sendable)?) -> Bool {
        predicates.allSatisfy { $0(item, decoded) }
    }

    /// The position key of `item` (decoded as `decoded`, if given) in the results.
    func sortKey(_ item: Item, decoded: (any Sendable)? = nil) -> SortKey {
        let key = orderKey(item, decoded: decoded)
        guard let grouping else { return key }
        return SortKey(
            primary: .grouped(grouping.place(of: item, inner: key.primary)), id: key.id,
            descending: key.descending)
    }

    /// The key of `item` by the query's order alone, grouping aside.
    private func orderKey(_ item: Item, decoded: (any Sendable)?) -> SortKey {
        switch order {
        case .id: SortKey(primary: .json(nil), id: item.id, descending: false)
        case .field(let name, let descending):
            SortKey(primary: .json(item[name]), id: item.id, descending: descending)
        case .value(_, let descending):
            SortKey(
                primary: .typed(valueOrder!.value(item, decoded), valueOrder!), id: item.id,
                descending: descending)
        }
    }

    /// Whether an item's position can change without its id changing: the order is by a
    /// value rather than by id.
    var ordersByValue: Bool { order != .id || grouping != nil }

    /// Whether the query selects every item, in id order (the default query).
    var selectsEveryItemByID: Bool { order == .id && predicates.isEmpty && grouping == nil }

    /// Whether the position depends on the decoded element, so the results remember each
    /// element's key instead of working it out again from the item.
    var ordersByDecodedValue: Bool { valueOrder != nil }
}
