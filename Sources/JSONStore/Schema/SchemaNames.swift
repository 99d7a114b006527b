/// The member names a keyword declares (`properties`, and the names `additionalProperties`
/// leaves to it), each with its subschema: found by a scan when there are few of them, as
/// a schema's objects mostly have, by hash when there are many.
///
/// A scan compares a dozen short names faster than one name is hashed, and an item's
/// members are each looked up twice (by `properties`, then `additionalProperties`).
struct SchemaNames: Sendable {
    /// Up to this many names are scanned.
    static let scanned = 16

    /// The names and their subschemas, in the schema's order.
    let entries: [(name: String, node: Int)]
    private let index: [String: Int]?
    /// Each name's length in UTF-8 bytes.
    private let lengths: [Int]

    init(_ entries: [(String, Int)]) {
        var seen: [String: Int] = [:]
        var unique: [(name: String, node: Int)] = []
        for (name, node) in entries {
            if let at = seen[name] {
                unique[at].node = node  // a repeated name: the last one counts
            } else {
                seen[name] = unique.count
                unique.append((name, node))
            }
        }
        self.entries = unique
        lengths = unique.map(\.name.utf8.count)
        index = unique.count > Self.scanned ? seen : nil
    }

    /// The subschema of `name`, if it is declared.
    subscript(name: String) -> Int? {
        if let index { return index[name].map { entries[$0].node } }
        // Compared only where the lengths agree: two short names that differ went to the
        // standard library's slow comparison, a call each.
        let length = name.utf8.count
        for (k, entry) in entries.enumerated() where lengths[k] == length && entry.name == name {
            return entry.node
        }
        return nil
    }

    func contains(_ name: String) -> Bool { self[name] != nil }

    /// The names, in the schema's order.
    var names: [String] { entries.map(\.name) }
}
