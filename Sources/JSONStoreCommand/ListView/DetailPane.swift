import JSONStore

/// `p`: the selected item's JSON beside the list (below it on a narrow terminal),
/// following the selection and live edits, with the members that changed in the item's
/// last update lit, from the change sets' member-level changes.
struct DetailPane {
    /// At most this many items' last changes are kept (the oldest go first).
    static let remembered = 256

    private(set) var isShown = false
    /// The top-level members that changed in each item's last update, by id.
    private var changed: [UTF8Key: Set<String>] = [:]
    private var order: [UTF8Key] = []

    mutating func toggle() { isShown.toggle() }

    /// Notes which members of each modified item changed.
    mutating func note(_ changes: ChangeSet<Item>) {
        for modification in changes.modified {
            let id = UTF8Key(modification.new.id)
            if changed[id] == nil { order.append(id) }
            changed[id] = Set(modification.changes.map { Self.member(of: $0.path) })
        }
        if order.count > Self.remembered {
            for id in order.prefix(order.count - Self.remembered) { changed[id] = nil }
            order.removeFirst(order.count - Self.remembered)
        }
    }

    /// The members of `id` that changed in its last update.
    func changedMembers(of id: String) -> Set<String> { changed[UTF8Key(id)] ?? [] }

    /// The item as pretty JSON, a line at a time, each with the top-level member it is
    /// part of (`nil` for the braces), escaped for the terminal.
    static func lines(of item: Item) -> [(text: String, member: String?)] {
        let object = item.object
        var lines: [(String, String?)] = [("{", nil)]
        for (index, member) in object.enumerated() {
            let key = String(decoding: JSONWriter.compact(.string(member.key)), as: UTF8.self)
            let value = String(
                decoding: JSONWriter.pretty(member.value, escapingUnicodeLineBreaks: true),
                as: UTF8.self)
            var parts = value.split(separator: "\n", omittingEmptySubsequences: false).map(
                String.init)
            if parts.last == "" { parts.removeLast() }
            if index < object.count - 1 { parts[parts.count - 1] += "," }
            for (k, part) in parts.enumerated() {
                let text = k == 0 ? "  \(key): \(part)" : "  \(part)"
                lines.append((Display.escaped(text), member.key))
            }
        }
        lines.append(("}", nil))
        return lines
    }

    /// The top-level member a JSON Pointer is in (`/owner/name` is in `owner`).
    private static func member(of path: String) -> String {
        let token = path.dropFirst().prefix { $0 != "/" }
        return String(token).replacing("~1", with: "/").replacing("~0", with: "~")
    }
}
