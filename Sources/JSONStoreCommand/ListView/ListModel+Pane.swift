import JSONStore

/// Where the list and the detail pane (`p`) go: side by side on a wide terminal, the pane
/// below the list on a narrow one.
extension ListModel {
    /// The number of rows on a screen of `height` lines (header, titles and footer take 3).
    package static func page(height: Int) -> Int { max(1, height - 3) }

    /// From this width on, the pane goes beside the list rather than below it.
    static let sideBySideWidth = 100

    /// The list's width and rows on a screen of `width` × `height`. Side by side, the width
    /// is shared by need: the pane takes what the JSON of the items on screen needs when
    /// the list can have the rest, the list what its columns need when the pane can; when
    /// both need more, the list has 11/20 of it.
    func listArea(width: Int, height: Int) -> (width: Int, page: Int) {
        let page = Self.page(height: height)
        guard pane.isShown else { return (width, page) }
        guard width >= Self.sideBySideWidth else { return (width, max(1, page / 2)) }
        let share = width * 11 / 20
        let widths = layout.naturalWidths
        let listNeed = 2 + widths.reduce(0, +) + Table.gap * max(0, widths.count - 1)
        let paneNeed = paneTextWidth(page: page) + 2  // the rule and a space
        return (max(min(listNeed, share), width - paneNeed), page)
    }

    /// The widest line of the pane for the items on screen, so the width does not change
    /// as the selection moves among them.
    ///
    /// - Complexity: O(page × the items' size).
    private func paneTextWidth(page: Int) -> Int {
        if pane.showsHistory, let id = selectedID {
            return pane.history.lines(of: id).map { TextWidth.of($0.text) }.max() ?? 0
        }
        let shown = visible
        var widest = 0
        let first = min(selection.top, shown.count)  // not scrolled yet after a filter
        for index in first..<min(shown.count, first + page) {
            guard let item = rows.item(at: shown.row(at: index)) else { continue }
            let violations = rows.results.error(for: item.id)?.violations ?? []
            for line in DetailPane.lines(of: item, violations: violations) {
                widest = max(widest, TextWidth.of(line.text))
            }
        }
        return widest
    }

    /// Draws the selected row's JSON beside or below the list drawn in `list`.
    func drawPane(_ frame: inout Frame, besideList list: (width: Int, page: Int)) {
        let beside = list.width < frame.width
        let left = beside ? list.width + 1 : 0
        let top = beside ? 1 : 2 + list.page
        let bottom = frame.height - 1  // the footer's row
        guard top < bottom else { return }
        let width = frame.width - left
        let rule = Style(dim: true)
        if beside {
            for row in top..<bottom { frame.put("│", row: row, column: left - 1, style: rule) }
        } else {
            frame.put(String(repeating: "─", count: frame.width), row: top, column: 0, style: rule)
        }
        let first = beside ? top : top + 1
        for row in first..<bottom {
            frame.fill(row: row, from: left, to: frame.width, style: Style())
        }
        guard visibleCount > 0 else { return }
        let row = visible.row(at: selection.index)
        guard let item = rows.item(at: row) else {
            let file = rows.file(at: row)
            let error = rows.invalidFile(at: row)?.error.description ?? ""
            frame.put(
                TextWidth.truncate(Display.escaped(file.name) + ": " + error, to: width - 1),
                row: first, column: left + 1, style: Style(foreground: .red))
            return
        }
        let lit = Style(foreground: .black, background: .yellow)
        if pane.showsHistory {
            for (offset, line) in pane.history.lines(of: item.id).prefix(bottom - first)
                .enumerated()
            {
                frame.put(
                    TextWidth.truncate(line.text, to: width - 1), row: first + offset,
                    column: left + 1, style: line.lit ? lit : Style())
            }
            return
        }
        let changed = pane.changedMembers(of: item.id)
        let violations = rows.results.error(for: item.id)?.violations ?? []
        // An error is wrapped, indented under its "!", rather than cut: it is what to fix.
        var shown: [(text: String, style: Style)] = []
        for line in DetailPane.lines(of: item, violations: violations) {
            guard line.isError else {
                let style = line.member.map { changed.contains($0) } == true ? lit : Style()
                shown.append((TextWidth.truncate(line.text, to: width - 1), style))
                continue
            }
            let fits = TextWidth.of(line.text) <= width - 1
            let parts = fits ? [line.text] : TextWidth.wrap(line.text, to: max(8, width - 5))
            for (index, part) in parts.enumerated() {
                shown.append(((index == 0 ? "" : "    ") + part, Style(foreground: .red)))
            }
        }
        for (offset, line) in shown.prefix(bottom - first).enumerated() {
            frame.put(line.text, row: first + offset, column: left + 1, style: line.style)
        }
    }
}

extension ListModel {
    /// `f`'s counts: each value and how many items have it, live.
    func drawCounts(_ frame: inout Frame, _ view: CountsView, page: Int) {
        frame.put(
            TextWidth.truncate(
                "Counts of \(Display.escaped(view.field)), live: Enter filters by the value",
                to: frame.width - 1), row: 1, column: 1, style: Style(bold: true))
        guard view.loaded else {
            frame.put("counting…", row: 2, column: 2, style: Style(dim: true))
            return
        }
        let lines = CountsWriter.table(view.counts, field: view.field, width: frame.width - 4)
        frame.put(lines[0], row: 2, column: 2, style: Style(bold: true))
        let rows = lines.dropFirst()
        let first = max(0, min(view.cursor - (page - 2), rows.count - (page - 1)))
        for (offset, line) in rows.dropFirst(first).prefix(max(0, page - 1)).enumerated() {
            let style = Style(reverse: first + offset == view.cursor)
            frame.fill(row: 3 + offset, from: 1, to: frame.width - 1, style: style)
            frame.put(line, row: 3 + offset, column: 2, style: style)
        }
        if rows.isEmpty { frame.put("no items", row: 3, column: 2, style: Style(dim: true)) }
    }
}
