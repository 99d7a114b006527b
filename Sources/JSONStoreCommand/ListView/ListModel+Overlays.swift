import JSONStore

/// The overlays that take the screen below the header: a file shown whole (Enter) and the
/// column picker (`c`). (An item's conflicts are in `ListModel+Conflicts`, `f`'s counts in
/// `ListModel+Pane`, `?`'s keys in `ListModel+Help`.)
extension ListModel {
    /// The file as it is on disk, with its error when it is invalid.
    func drawDetail(_ frame: inout Frame, _ file: FileView, page: Int) {
        var title = Display.escaped(file.name)
        if let error = fileError(file) {
            title +=
                file.id.flatMap { results.index(ofID: $0) } != nil
                ? "  invalid: \(error.description) (the list shows the last valid value)"
                : "  invalid: \(error.description)"
        }
        frame.put(
            TextWidth.truncate(title, to: frame.width - 1), row: 1, column: 1,
            style: Style(bold: true))
        guard let lines = file.lines else {
            frame.put("reading…", row: 2, column: 2, style: Style(dim: true))
            return
        }
        if let problem = file.problem {
            frame.put(Display.escaped(problem), row: 2, column: 2, style: Style(foreground: .red))
            return
        }
        for (offset, line) in lines.dropFirst(min(file.scroll, max(0, lines.count - 1))).prefix(
            page
        ).enumerated() {
            frame.put(line, row: 2 + offset, column: 2, style: Style())
        }
    }

    /// The error of the file shown, if it is invalid now.
    private func fileError(_ file: FileView) -> StoreError? {
        if let id = file.id, let error = results.error(for: id) { return error }
        return rows.invalidRows.first { $0.name == file.name }?.error
    }

    /// The column picker: one line per field, `[2] title` for the second column shown.
    func drawPicker(_ frame: inout Frame, _ picker: ColumnPicker, page: Int) {
        frame.put(
            "Columns after the id, in the order chosen:", row: 1, column: 1,
            style: Style(bold: true))
        let lines = picker.lines
        let cursor = lines.firstIndex { $0.isCursor } ?? 0
        let first = max(0, min(cursor - page + 1, lines.count - page))
        for (offset, line) in lines.dropFirst(max(0, first)).prefix(page).enumerated() {
            frame.put(
                Display.escaped(line.text), row: 2 + offset, column: 2,
                style: Style(reverse: line.isCursor))
        }
    }
}
