/// An `enum`'s values, found by hash: a schema may list 100,000 of them, and checking a
/// value stays a lookup rather than a walk through all of them.
struct SchemaEnum: Sendable {
    /// The values, in the schema's order (the first few are named in errors).
    let values: [JSONValue]
    /// The values' indices by `SchemaEquality.hash`, which equal values share.
    private let index: [Int: [Int]]

    init(_ values: [JSONValue]) {
        self.values = values
        var index: [Int: [Int]] = [:]
        for (i, value) in values.enumerated() {
            index[SchemaEquality.hash(value), default: []].append(i)
        }
        self.index = index
    }

    /// Whether `value` equals one of the values, as JSON Schema compares them.
    ///
    /// - Complexity: O(the size of `value`) expected.
    func contains(_ value: JSONValue) -> Bool {
        guard let candidates = index[SchemaEquality.hash(value)] else { return false }
        return candidates.contains { SchemaEquality.equal(values[$0], value) }
    }
}
