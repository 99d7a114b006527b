extension Query {
    /// This query's results in sections, one per value of the member `member`, as Realm's
    /// sectioned results: `Results.sections`, and `ChangeSet.sections` for the rows and
    /// sections that changed.
    ///
    /// `member` is a name (`"status"`), a dotted path (`"owner.name"`; a top-level member
    /// whose name holds the dots wins) or a JSON Pointer (`"/tags/0"`). Sections are
    /// ordered by their value as sorting orders values (`JSONOrdering`: numbers by value,
    /// strings by their bytes; equal values, such as `2` and `2.0`, are one section),
    /// descending if asked; the items that lack the member are a section of their own,
    /// first (last when descending). Inside a section, items keep the query's order.
    ///
    /// An item whose member holds an array is in the section of each of its distinct
    /// elements (equal as sections compare values), as `--where tags=home` matches an
    /// element: by `"tags"`, a task tagged `["home", "urgent"]` is in both sections, and
    /// each section counts the items holding its element. Such an item is a row of the
    /// results once per section it is in; an empty array counts as lacking the member.
    ///
    /// Each section keeps a count, and for each of the members in `aggregating` the sum,
    /// minimum and maximum of its numbers (`Section.sum(of:)`), updated with every change
    /// in O(log n), never recomputed over the store.
    ///
    /// For example:
    ///
    /// ```swift
    /// let board = Query.all.sorted(by: "priority", descending: true)
    ///     .grouped(by: "status", aggregating: ["estimate"])
    /// ```
    public func grouped(
        by member: String, descending: Bool = false, aggregating members: [String] = []
    ) -> Query {
        grouped(
            named: member, by: Grouping.lookup(member), descending: descending,
            aggregating: members)
    }

    /// This query's results in sections by a value computed from each item (`nil` for the
    /// items of the section that has none), named `name`; as `grouped(by:)` otherwise.
    ///
    /// For a notion of a member that a name or path cannot say: the command groups by
    /// its own dotted paths, which reach through arrays.
    public func grouped(
        named name: String, by value: @escaping @Sendable (Item) -> JSONValue?,
        descending: Bool = false, aggregating members: [String] = []
    ) -> Query {
        var query = self
        query.grouping = Grouping(
            name: name, value: value, descending: descending, aggregated: members,
            values: members.map(Grouping.lookup))
        return query
    }

    /// The member the results are grouped by, if they are (`grouped(by:)`).
    public var groupedBy: String? { grouping?.name }

    /// The member's value in `item` as grouping reads it (`nil` if it lacks the member, or
    /// if the query is not grouped), a number in its shortest spelling: the value of the
    /// section `item` goes in, unless it is an array (see `groupValues(of:)`).
    public func groupValue(of item: Item) -> JSONValue? { grouping?.key(of: item) }

    /// The values of the sections `item` is in, in section order: the member's value, or
    /// each distinct element of an array (`[nil]` for an item lacking the member or holding
    /// an empty array); empty if the query is not grouped.
    public func groupValues(of item: Item) -> [JSONValue?] {
        guard let grouping else { return [] }
        let place = grouping.place(of: item, inner: nil)
        return place.elements.isEmpty ? [place.group] : place.elements
    }
}

/// How a query groups its results: by what, in which direction, and what each group sums.
struct Grouping: Sendable {
    let name: String
    let value: @Sendable (Item) -> JSONValue?
    let descending: Bool
    /// The members each group aggregates, as named, and how to read each.
    let aggregated: [String]
    let values: [@Sendable (Item) -> JSONValue?]

    /// The value of `item`'s group. A number is grouped as its shortest exact spelling,
    /// so the section of `2` and `2.0` is `2` whichever came first.
    func key(of item: Item) -> JSONValue? {
        let group = value(item)
        if case .number(let number)? = group { return .number(ExactSum.canonical(number)) }
        return group
    }

    /// The place of `item`'s first row in grouped results, with `inner` its key by the
    /// query's order: in its first section, naming the others if its member is an array.
    func place(of item: Item, inner: SortKey.Value?) -> GroupPlace {
        var group = key(of: item)
        var elements: [JSONValue?] = []
        if case .array(let array)? = group {
            elements = distinct(array)
            group = elements.isEmpty ? nil : elements[0]
            if elements.count < 2 { elements = [] }
        }
        return GroupPlace(
            group: group, descending: descending, inner: inner,
            aggregated: values.map { read in
                if case .number(let number)? = read(item) { return number }
                return nil
            }, elements: elements)
    }

    /// The distinct elements of an array, numbers in their shortest spelling, in section
    /// order: the values of the sections an item holding it is in.
    private func distinct(_ array: [JSONValue]) -> [JSONValue?] {
        let order: JSONOrdering.Result = descending ? .greater : .less
        var values: [JSONValue?] = []
        for element in array.sorted(by: { JSONOrdering.compare($0, $1) == order })
        where values.last.map({ JSONOrdering.compare($0, element) != .equal }) ?? true {
            if case .number(let number) = element {
                values.append(.number(ExactSum.canonical(number)))
            } else {
                values.append(element)
            }
        }
        return values
    }

    /// Where `member` names a value: a JSON Pointer, a top-level name, else a dotted path
    /// through nested objects.
    static func lookup(_ member: String) -> @Sendable (Item) -> JSONValue? {
        if member.hasPrefix("/") {
            let path = member.dropFirst()
            return { item in
                path == "id" ? item["id"] : MemberChange.value(at: path, in: .object(item.members))
            }
        }
        guard member.contains(".") else { return { $0[member] } }
        let path = MemberChange.pointer(member).dropFirst()
        return { item in
            item[member] ?? MemberChange.value(at: path, in: .object(item.members))
        }
    }
}
