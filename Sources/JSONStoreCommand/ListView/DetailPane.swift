import JSONStore

/// `p`: the selected item's JSON beside the list (below it on a narrow terminal),
/// following the selection and live edits, with the members that changed in the item's
/// last update lit, from the change sets' member-level changes. `h`: its history there
/// instead (`HistoryPane`).
struct DetailPane {
    /// What the pane shows.
    enum Content { case json, history }

    /// At most this many items' last changes are kept (the oldest go first).
    static let remembered = 256

    private(set) var isShown = false
    private(set) var content = Content.json
    private(set) var history = HistoryPane()
    /// The top-level members that changed in each item's last update, by id.
    private var changed: [UTF8Key: Set<String>] = [:]
    private var order: [UTF8Key] = []

    /// Shows `shown`, or hides the pane when it shows it already.
    mutating func toggle(_ shown: Content = .json) {
        isShown = !(isShown && content == shown)
        content = shown
    }

    /// Whether the pane shows the history.
    var showsHistory: Bool { isShown && content == .history }

    mutating func showHistory(
        _ id: String, _ outcome: Result<[HistoryEntry], StoreError>, asOf: Int
    ) {
        history.show(id, outcome, asOf: asOf)
    }

    /// Notes which members of each modified item changed.
    mutating func note(_ changes: ChangeSet<Item>) {
        history.note(changes)
        for modification in changes.modified {
            let id = UTF8Key(modification.new.id)
            if changed[id] == nil { order.append(id) }
            changed[id] = Set(modification.changes.map { MemberChange.topLevelName(of: $0.path) })
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
            let last = index == object.count - 1
            for line in PrettyMember.lines(member.key, member.value, last: last, forTerminal: true)
            {
                lines.append((line, member.key))
            }
        }
        lines.append(("}", nil))
        return lines
    }
}
