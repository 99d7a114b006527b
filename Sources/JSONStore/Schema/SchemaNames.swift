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
    private let index: [UTF8Key: Int]?

    init(_ entries: [(String, Int)]) {
        var seen: [UTF8Key: Int] = [:]
        var unique: [(name: String, node: Int)] = []
        for (name, node) in entries {
            let key = UTF8Key(name)
            if let at = seen[key] {
                unique[at].node = node  // a repeated name: the last one counts
            } else {
                seen[key] = unique.count
                unique.append((name, node))
            }
        }
        self.entries = unique
        index = unique.count > Self.scanned ? seen : nil
    }

    /// The subschema of `name`, if it is declared: matched by UTF-8 bytes, as members are
    /// (`UTF8Key`), so `é` and `e` with U+0301 are two names whichever way they are found.
    subscript(name: String) -> Int? {
        if let index { return index[UTF8Key(name)].map { entries[$0].node } }
        for entry in entries where UTF8Key.equal(entry.name, name) { return entry.node }
        return nil
    }

    func contains(_ name: String) -> Bool { self[name] != nil }

    /// The names, in the schema's order.
    var names: [String] { entries.map(\.name) }
}
