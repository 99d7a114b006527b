import JSONStore

/// `h`: the selected item's history in the pane, newest first: each change's revision,
/// time and source, then the members it changed, lit. Read by the app off the main
/// queue (`historyToLoad`), and read again when a change touches the item.
struct HistoryPane {
    /// How many of the item's newest changes are read.
    static let limit = 50

    /// The item shown, and what was read of it: its entries, or why there are none.
    private(set) var id: String?
    private(set) var entries: [HistoryEntry] = []
    private(set) var message: String?
    /// Whether a change touched the item since it was read.
    private(set) var isStale = false
    /// One more for every change set: a read that began before one may have missed it.
    private(set) var changes = 0

    /// Whether the item `id` must be read (again).
    func needs(_ id: String) -> Bool { self.id != id || isStale }

    /// Takes what was read of `id`, the read begun when `changes` was `asOf`.
    mutating func show(_ id: String, _ outcome: Result<[HistoryEntry], StoreError>, asOf: Int) {
        self.id = id
        isStale = asOf != changes
        switch outcome {
        case .success(let entries):
            self.entries = entries
            message = entries.isEmpty ? "no change of \(Display.escaped(id)) in the history" : nil
        case .failure(let error):
            entries = []
            message = Display.escaped(error.message)
        }
    }

    /// Notes the items a change set touched.
    mutating func note(_ changes: ChangeSet<Item>) {
        self.changes += 1
        guard let id, !isStale else { return }
        let touched =
            changes.modified.contains { $0.new.id == id }
            || changes.inserted.contains { $0.id == id }
            || changes.deleted.contains { $0.id == id }
        if touched { isStale = true }
    }

    /// The pane's lines for the item `id`, each lit or not: a line per change (revision,
    /// time, source), then one per member it changed, lit, escaped for the terminal.
    func lines(of id: String) -> [(text: String, lit: Bool)] {
        guard self.id == id else {
            return [("reading the history of \(Display.escaped(id))…", false)]
        }
        if let message { return [(message, false)] }
        let words = HistoryWords()
        var lines: [(String, Bool)] = []
        for entry in entries {
            let time = entry.time.map { "  " + ViewClock.localDateTime($0.timeIntervalSince1970) }
            lines.append(
                (
                    "\(entry.revision)\(time ?? "")  \(entry.kind.rawValue)  \(words.source(entry))",
                    false
                ))
            switch entry.kind {
            case .modified:
                if entry.changes.isEmpty { lines.append(("  (what changed is not known)", true)) }
                for change in entry.changes { lines.append(("  " + words.member(change), true)) }
            case .created, .deleted:
                lines.append(("  " + words.changes(entry), true))
            }
        }
        return lines
    }
}
