import JSONStore

extension ListModel {
    static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Draws the view as it is scrolled. Only the rows on screen are laid out, so a store
    /// of 100,000 items draws as fast as one of 100.
    ///
    /// - Complexity: O(width × height + visible rows × log n).
    func draw(width: Int, height: Int, now: Double) -> Frame {
        var frame = Frame(width: width, height: height)
        let page = Self.page(height: height)
        drawHeader(&frame, now: now)
        if let conflictView {
            drawConflicts(&frame, conflictView, page: page)
        } else if let detail {
            drawDetail(&frame, detail, page: page)
        } else if let picker {
            drawPicker(&frame, picker, page: page)
        } else if let countsView {
            drawCounts(&frame, countsView, page: page)
        } else {
            let area = listArea(width: width, height: height)
            drawList(&frame, page: area.page, width: area.width, now: now)
            if pane.isShown { drawPane(&frame, besideList: area) }
        }
        drawFooter(&frame)
        if showsHelp { drawHelp(&frame) }
        if preview == nil && status.showsOverlay(now: now) { drawOverlay(&frame, now: now) }
        return frame
    }

    private func drawHeader(_ frame: inout Frame, now: Double) {
        let bar = Style(reverse: true)
        frame.fill(row: 0, style: bar)
        var parts = [
            " jsonstore", Display.escaped(storePath), Self.count(results.count, "item"),
        ]
        let invalid = rows.invalidCount
        if invalid > 0 { parts.append("\(Self.number(invalid)) invalid") }
        if rows.conflictCount > 0 { parts.append(Self.count(rows.conflictCount, "conflict")) }
        parts.append(status.headerText(now: now))
        if let sort = layout.sortDescription { parts.append("sort \(Display.escaped(sort))") }
        if !filter.isEmpty && !filter.isEditing {
            parts.append("filter \(Display.escaped(filter.text))")
        }
        let marked = selection.marks.count
        if marked > 0 { parts.append("\(Self.number(marked)) marked") }
        if let lastChange = status.lastChange { parts.append("last change \(lastChange)") }
        frame.put(
            TextWidth.truncate(parts.joined(separator: " · "), to: frame.width), row: 0, column: 0,
            style: bar)
    }

    private func drawFooter(_ frame: inout Frame) {
        let row = frame.height - 1
        let bar = Style(reverse: true)
        frame.fill(row: row, style: bar)
        let text: String
        if let notice {
            drawNotice(&frame, notice)
            return
        } else if let question = footer.questionText {
            text = question
        } else if picker != nil {
            text = " space show/hide  ↑↓ jk move  Enter apply  Esc cancel"
        } else if countsView != nil {
            text = " ↑↓ jk move  Enter filter the list by the value  Esc back"
        } else if let conflictView {
            text = conflictView.keys
        } else if detail != nil {
            text = " Esc back  ↑↓ scroll  q back  Ctrl-C quit"
        } else if editingFilter {
            text = " /" + Display.escaped(filter.text) + "▏  Enter keep  Esc clear"
        } else if !selection.marks.isEmpty {
            text =
                " \(Self.number(selection.marks.count)) marked  Space mark  d delete them  e edit them  y copy ids  Esc unmark"
        } else if !filter.isEmpty {
            text =
                " filter \"\(Display.escaped(filter.text))\": \(Self.number(visibleCount)) of \(Self.number(rows.count))  Esc clear  q quit"
        } else {
            text = conflictFooter ?? ListKeys.footer
        }
        frame.put(TextWidth.truncate(text, to: frame.width), row: row, column: 0, style: bar)
    }

    /// A notice in the footer, whole: each of its lines wrapped over as many rows above the
    /// footer as it needs (a path that keeps the user's text is never cut).
    private func drawNotice(_ frame: inout Frame, _ notice: String) {
        let style = Style(foreground: .yellow, reverse: true)
        let lines = notice.split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { TextWidth.wrap(String($0), to: frame.width - 1) }
            .prefix(max(1, frame.height - 2))
        for (offset, line) in lines.enumerated() {
            let row = frame.height - lines.count + offset
            frame.fill(row: row, style: style)
            frame.put(" " + line, row: row, column: 0, style: style)
        }
    }

    private func drawList(_ frame: inout Frame, page: Int, width: Int, now: Double) {
        let gutter = 2
        let widths = Table.widths(natural: layout.naturalWidths, total: width - gutter)
        let titles = Table.line(columns.map(Display.heading), widths)
        frame.put(titles, row: 1, column: gutter, style: Style(bold: true))
        if let preview, !status.loaded {
            for (line, item) in preview.prefix(page).enumerated() {
                frame.put(
                    Table.line(table.cells(item), widths), row: 2 + line, column: gutter,
                    style: Style(), limit: width - gutter)
            }
            return
        }
        let dim = status.isLoading
        let shown = self.visible
        for line in 0..<page {
            let visible = selection.top + line
            guard visible < shown.count else { break }
            let row = shown.row(at: visible)
            let screenRow = 2 + line
            var style = Style()
            var mark = " "
            let text: String
            if row < results.count {
                let item = results[row]
                text = Table.line(table.cells(item), widths)
                if results.error(for: item.id) != nil {
                    mark = "!"
                    style.foreground = .red
                } else if let kind = highlights.kind(of: item.id, now: now) {
                    style.background = kind == .inserted ? .green : .yellow
                    style.foreground = .black
                    style.bold = true
                }
            } else {
                let file = rows.invalidRows[row - results.count]
                let name = TextWidth.fit(
                    Display.escaped(file.id ?? file.name), to: widths.first ?? 10)
                text =
                    name + "  " + Display.escaped(file.error.message) + locationSuffix(file.error)
                mark = "!"
                style.foreground = .red
            }
            if let id = rows.id(at: row), rows.hasConflicts(id) {
                mark = "!"
                style.foreground = .yellow
            }
            if !selection.marks.isEmpty, let id = rows.id(at: row), selection.isMarked(id) {
                mark = "*"
                style.bold = true
            }
            if visible == selected { style.reverse = true }
            if dim { style.dim = true }
            frame.fill(row: screenRow, to: width, style: style)
            frame.put(mark, row: screenRow, column: 0, style: style)
            frame.put(text, row: screenRow, column: gutter, style: style, limit: width - gutter)
        }
        if visibleCount == 0 && !status.isLoading {
            let message = filter.isEmpty ? "no items" : "no rows match the filter"
            frame.put(message, row: 2, column: gutter, style: Style(dim: true))
        }
    }

    private func locationSuffix(_ error: StoreError) -> String {
        guard let line = error.line else { return "" }
        return " (line \(line)" + (error.column.map { ", column \($0)" } ?? "") + ")"
    }

    /// The file as it is on disk, with its error when it is invalid.
    private func drawDetail(_ frame: inout Frame, _ file: FileView, page: Int) {
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
    private func drawPicker(_ frame: inout Frame, _ picker: ColumnPicker, page: Int) {
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

    /// `?`: the list's keys, from the one table the keys are read from, over the list.
    private func drawHelp(_ frame: inout Frame) {
        let bindings = ListKeys.bindings
        let labelWidth = bindings.map { TextWidth.of($0.label) }.max() ?? 1
        let width = min(frame.width - 2, 76)
        let rows = min(bindings.count, frame.height - 5)
        guard width >= 20, rows > 0 else { return }
        let left = (frame.width - width) / 2
        let box = Style(bold: true)
        frame.fill(row: 1, from: left, to: left + width, style: box)
        frame.put(" Keys (any key closes this)", row: 1, column: left, style: box)
        for (offset, binding) in bindings.prefix(rows).enumerated() {
            let row = 2 + offset
            frame.fill(row: row, from: left, to: left + width, style: Style())
            let line = TextWidth.fit(binding.label, to: labelWidth) + "  " + binding.help
            frame.put(
                TextWidth.truncate(" " + line, to: width), row: row, column: left, style: Style())
        }
        frame.fill(row: 2 + rows, from: left, to: left + width, style: Style())
    }

    /// `1 item`, `12,400 items`.
    static func count(_ n: Int, _ noun: String) -> String {
        "\(number(n)) \(noun)\(n == 1 ? "" : "s")"
    }

    /// `12,400`: digits grouped by thousands.
    static func number(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}
