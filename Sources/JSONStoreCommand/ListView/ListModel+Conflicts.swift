import JSONStore

extension ListModel {
    /// An item's conflicts: the item beside the version shown (`ConflictView`).
    func drawConflicts(_ frame: inout Frame, _ view: ConflictView, page: Int) {
        frame.put(
            TextWidth.truncate(view.title, to: frame.width - 1), row: 1, column: 1,
            style: Style(foreground: .yellow, bold: true))
        let lines = view.lines
        for (offset, line) in lines.dropFirst(min(view.scroll, max(0, lines.count - 1)))
            .prefix(page).enumerated()
        {
            let heading = !line.hasPrefix("  ") && !line.isEmpty
            frame.put(
                line, row: 2 + offset, column: 2, style: Style(bold: heading),
                limit: frame.width - 2)
        }
    }

    /// The footer for the row selected when its item has conflicts; `nil` when it has none.
    var conflictFooter: String? {
        guard let id = selectedID, rows.hasConflicts(id) else { return nil }
        let count = results.conflicts(of: id).count
        return
            " \(Display.escaped(id)): \(Self.count(count, "conflict"))  Enter both versions, to keep one or merge  ? keys"
    }
}
