/// What grouped results know of one group without walking it: how many items it has,
/// and for each aggregated member the sum, minimum and maximum of its numbers.
///
/// Kept as items come and go, in O(log n) a change: the sum exactly (`ExactSum`), the
/// numbers in a sorted tree of their own so the minimum and maximum survive a removal.
struct GroupSummary: Sendable {
    /// The items in the group.
    private(set) var count = 0
    /// One per aggregated member, in the order the query names them.
    private(set) var aggregates: [Aggregate]

    init(aggregating members: Int) {
        aggregates = Array(repeating: Aggregate(), count: members)
    }

    /// Counts in the item of `id`, whose key in the results carries `place`.
    mutating func add(_ place: GroupPlace, id: String) {
        count += 1
        for (i, number) in place.aggregated.enumerated() {
            if let number { aggregates[i].add(number, id: id) }
        }
    }

    /// Takes out the item `add` counted in with the same `place`.
    mutating func remove(_ place: GroupPlace, id: String) {
        count -= 1
        for (i, number) in place.aggregated.enumerated() {
            if let number { aggregates[i].remove(number, id: id) }
        }
    }

    /// Whether the two show the same figures: count, sums, minimums and maximums.
    func sameFigures(as other: GroupSummary) -> Bool {
        count == other.count
            && zip(aggregates, other.aggregates).allSatisfy { $0.sameFigures(as: $1) }
    }
}

/// One member's figures in a group: the sum, minimum and maximum of its numbers (items
/// whose member is missing or not a number do not count).
struct Aggregate: Sendable {
    private(set) var sum = ExactSum()
    /// The numbers, each with the id that holds it, in ascending order.
    private var numbers = SortedTree<NumberKey, Bool>()

    /// How many of the group's items have a number there.
    var count: Int { numbers.count }

    var minimum: JSONNumber? { numbers.isEmpty ? nil : numbers.element(at: 0).key.number }

    var maximum: JSONNumber? {
        numbers.isEmpty ? nil : numbers.element(at: numbers.count - 1).key.number
    }

    mutating func add(_ number: JSONNumber, id: String) {
        sum.add(number)
        numbers.updateValue(true, forKey: NumberKey(number: number, id: id))
    }

    mutating func remove(_ number: JSONNumber, id: String) {
        sum.subtract(number)
        numbers.removeValue(forKey: NumberKey(number: number, id: id))
    }

    func sameFigures(as other: Aggregate) -> Bool {
        func same(_ a: JSONNumber?, _ b: JSONNumber?) -> Bool {
            switch (a, b) {
            case (nil, nil): true
            case (let x?, let y?): JSONNumber.equalValues(x, y)
            default: false
            }
        }
        return count == other.count && sum == other.sum && same(minimum, other.minimum)
            && same(maximum, other.maximum)
    }
}

/// A number in a group, ordered by exact value, ties by the id holding it.
struct NumberKey: Comparable, Hashable, Sendable {
    let number: JSONNumber
    let id: String

    static func < (a: NumberKey, b: NumberKey) -> Bool {
        let order = JSONNumber.compareValues(a.number, b.number)
        return order != 0 ? order < 0 : UTF8Key.less(a.id, b.id)
    }

    static func == (a: NumberKey, b: NumberKey) -> Bool {
        UTF8Key.equal(a.id, b.id) && JSONNumber.equalValues(a.number, b.number)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(UTF8Key(id))
    }
}
