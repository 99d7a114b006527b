import JSONStore

/// A member named on the command line: `title`, or a dotted path into nested objects,
/// `owner.name`.
///
/// A top-level member whose name holds the dots itself wins over the path. Through an
/// array, a path reaches every element's member (`owners.name` on `"owners": [{…}, {…}]`
/// is the array of their names), so a condition on it matches when any of them does.
struct FieldPath: Hashable, Sendable, CustomStringConvertible {
    /// The path as typed.
    let text: String
    private let components: [String]

    init(_ text: String) {
        self.text = text
        components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    var description: String { text }

    /// Whether this names a nested member rather than a top-level one.
    var isNested: Bool { components.count > 1 }

    /// The value at this path in `item`, `nil` if there is none. `id` is the item's id.
    func value(in item: Item) -> JSONValue? {
        if text == "id" { return .string(item.id) }
        if let member = item[text] { return member }
        guard isNested else { return nil }
        return Self.follow(components[...], in: .object(item.members))
    }

    private static func follow(_ path: ArraySlice<String>, in value: JSONValue) -> JSONValue? {
        guard let first = path.first else { return value }
        switch value {
        case .object(let object):
            return object[first].flatMap { follow(path.dropFirst(), in: $0) }
        case .array(let elements):
            let found = elements.compactMap { follow(path, in: $0) }
            return found.isEmpty ? nil : .array(found)
        default:
            return nil
        }
    }

    /// The warnings for the paths of `paths` that no item of `items` has, each naming the
    /// option it came from and the fields that exist.
    ///
    /// - Complexity: O(items × paths), stopping at the first item that has a path.
    static func unknown<C: Collection>(
        _ paths: [(path: FieldPath, option: String)], in items: C
    ) -> [String] where C.Element == Item {
        let missing = missing(paths, in: items)
        guard !missing.isEmpty else { return [] }
        return warnings(
            missing, fields: Table.columns(for: items, requested: nil, limit: Int.max))
    }

    /// The paths of `paths` that no item of `items` has (`id` every item has).
    static func missing<C: Collection>(
        _ paths: [(path: FieldPath, option: String)], in items: C
    ) -> [(path: FieldPath, option: String)] where C.Element == Item {
        paths.filter { entry in
            entry.path.text != "id" && !items.contains { entry.path.value(in: $0) != nil }
        }
    }

    /// The warnings for `missing`, paths no item has, naming `fields`, those that exist
    /// (`id` first, then by how many items have them).
    static func warnings(_ missing: [(path: FieldPath, option: String)], fields: [String])
        -> [String]
    {
        let known = fields.map(Display.escaped).joined(separator: ", ")
        var seen: Set<String> = []
        return missing.compactMap { entry in
            guard seen.insert(entry.option + entry.path.text).inserted else { return nil }
            return
                "warning: no item has the field '\(Display.escaped(entry.path.text))' (\(entry.option)); the fields are: \(known)"
        }
    }
}
