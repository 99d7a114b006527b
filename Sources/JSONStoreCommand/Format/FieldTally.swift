import JSONStore

/// How many items have each top-level field, counted as items go by: the columns a
/// table picks, and the fields a warning names, without keeping the items.
struct FieldTally {
    private var count: [UTF8Key: Int] = [:]  // by the field name's bytes
    private var order: [UTF8Key] = []

    /// Counts the fields of `items`.
    mutating func add<C: Collection>(_ items: C) where C.Element == Item {
        for item in items {
            for member in item.members where member.key != "id" {
                let field = UTF8Key(member.key)
                if count[field] == nil { order.append(field) }
                count[field, default: 0] += 1
            }
        }
    }

    /// `id`, then the `limit` most common fields, most common first, ties in the order
    /// first seen.
    func ranked(limit: Int = .max) -> [String] {
        let ranked = order.enumerated().sorted {
            (count[$0.element]!, -$0.offset) > (count[$1.element]!, -$1.offset)
        }
        return ["id"] + ranked.prefix(limit).map(\.element.string)
    }
}
