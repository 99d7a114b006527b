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
    /// part of (`nil` for the braces), escaped for the terminal; each of `violations` (how
    /// it breaks the store's schema) is a line of its own under its member (`isError`),
    /// those about the whole item before the closing brace.
    static func lines(of item: Item, violations: [SchemaViolation] = [])
        -> [(text: String, member: String?, isError: Bool)]
    {
        let object = item.object
        var lines: [(String, String?, Bool)] = [("{", nil, false)]
        let members = Set(object.keys.map(UTF8Key.init))
        func errors(at member: String?) {
            for violation in violations {
                // A member the shown value lacks (it is the last valid one) goes at the end.
                let at = Self.member(of: violation).flatMap {
                    members.contains(UTF8Key($0)) ? $0 : nil
                }
                guard at == member else { continue }
                let path = violation.instancePath.isEmpty ? "/" : violation.instancePath
                lines.append(
                    (
                        "  ! \(Display.escaped(path)): \(Display.escaped(violation.message))",
                        member, true
                    ))
            }
        }
        for (index, member) in object.enumerated() {
            let last = index == object.count - 1
            for line in PrettyMember.lines(member.key, member.value, last: last, forTerminal: true)
            {
                lines.append((line, member.key, false))
            }
            errors(at: member.key)
        }
        errors(at: nil)
        lines.append(("}", nil, false))
        return lines
    }

    /// The top-level member a violation is about; `nil` for the whole item (or a member the
    /// item does not have, as a refused one of another version).
    private static func member(of violation: SchemaViolation) -> String? {
        let tokens = violation.instancePath.split(separator: "/", omittingEmptySubsequences: false)
        guard tokens.count > 1 else { return nil }
        return String(tokens[1]).replacing("~1", with: "/").replacing("~0", with: "~")
    }
}
