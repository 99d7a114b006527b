import JSONStore

/// `list --count-by FIELD`: each value of a field with how many items have it, like
/// `sort | uniq -c` over the field, kept live with `--follow --json`.
///
/// The values come in the order sorting orders them (`--sort FIELD`, the default, or
/// `--sort -FIELD`), or by their counts (`--sort count`, `--sort -count`, ties by value).
/// The items lacking the field are counted under no value. A field holding an array
/// counts each of its distinct elements once for the item, as `--where tags=home` matches
/// an element (`tags`: home 6, urgent 5); an empty array counts as lacking the field.
struct CountBy: Sendable {
    /// One value and its count: `nil` for the items that lack the field.
    struct Count: Sendable, Equatable {
        let value: JSONValue?
        let count: Int

        static func == (a: Count, b: Count) -> Bool {
            a.count == b.count && JSONOrdering.compare(a.value, b.value) == .equal
        }
    }

    let field: FieldPath
    /// The values in descending order.
    let descending: Bool
    /// Ordered by count rather than by value (`--sort count`).
    let byCount: Bool

    /// `--count-by FIELD` with the `--sort` keys given, which may only name FIELD or
    /// `count`.
    init(_ field: String, sort: [SortField]) throws(UsageError) {
        self.field = FieldPath(field)
        guard sort.count <= 1 else {
            throw UsageError(
                "with --count-by, --sort takes one of \(field), -\(field), count, -count",
                command: "list")
        }
        let key = sort.first
        guard key == nil || key!.field.text == field || key!.field.text == "count" else {
            throw UsageError(
                "with --count-by \(Display.escaped(field)), --sort takes \(Display.escaped(field)), -\(Display.escaped(field)), count or -count, not '\(Display.escaped(SortField.text(sort)))'",
                command: "list")
        }
        descending = key?.descending ?? false
        byCount = key != nil && key!.field.text != field
    }

    /// `query` (its conditions) grouped by the field, sections in value order.
    func grouped(_ query: Query) -> Query {
        let field = self.field
        return query.sortedByID().grouped(
            named: field.text, by: { field.value(in: $0) },
            descending: descending && !byCount)
    }

    /// The counts of live grouped results, in this order: a section's, as the library
    /// puts an item whose field holds an array in the section of each distinct element.
    ///
    /// - Complexity: O(s log s) for s sections.
    func counts(_ results: Results<Item>) -> [Count] {
        var tally: [JSONValue?: Int] = [:]
        for section in results.sections { tally[section.key, default: 0] += section.count }
        return counts(tally)
    }

    /// The counts of `items`, the items `query` selects (a one-shot listing): tallied in
    /// one pass, then only the distinct values sorted. An item counts under the values of
    /// the sections it would be in (`Query.groupValues(of:)`): each distinct element of an
    /// array (equal as sorting compares them: `2` and `2.0` are one), none of an empty one.
    func counts(_ items: [Item], query: Query) -> [Count] {
        let grouped = grouped(query)
        var tally: [JSONValue?: Int] = [:]  // values as their sections are: numbers canonical
        for item in items where grouped.includes(item) {
            for value in grouped.groupValues(of: item) { tally[value, default: 0] += 1 }
        }
        return counts(tally)
    }

    /// `tally`'s values with their counts, in the order asked for.
    private func counts(_ tally: [JSONValue?: Int]) -> [Count] {
        var counts: [Count] = []
        let order: JSONOrdering.Result = descending && !byCount ? .greater : .less
        for (value, count) in tally.sorted(by: { JSONOrdering.compare($0.key, $1.key) == order }) {
            // Values equal by order but not by bytes (arrays of equal numbers) are one.
            if let last = counts.last, JSONOrdering.compare(last.value, value) == .equal {
                counts[counts.count - 1] = Count(value: last.value, count: last.count + count)
            } else {
                counts.append(Count(value: value, count: count))
            }
        }
        return ordered(counts)
    }

    /// `counts`, in value order already, put in the order asked for.
    private func ordered(_ counts: [Count]) -> [Count] {
        guard byCount else { return counts }
        let ranked = counts.enumerated().sorted { a, b in
            a.element.count != b.element.count
                ? (a.element.count < b.element.count) != descending : a.offset < b.offset
        }
        return ranked.map(\.element)
    }
}
