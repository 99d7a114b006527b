import JSONStore

extension ListModel {
    /// At most this many lines of notices are drawn; the last says how many more.
    static let noticeLines = 3

    static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Draws the view as it is scrolled. Only the rows on screen are laid out, so a store
    /// of 100,000 items draws as fast as one of 100.
    ///
    /// - Complexity: O(width × height + visible rows × log n).
    func draw(width: Int, height: Int, now: Double) -> Frame {
        var frame = Frame(width: width, height: height)
        let page = Self.page(height: height)
        drawHeader(&frame, now: now)
        switch overlay {
        case .none, .help, .prompt:
            let area = listArea(width: width, height: height)
            drawList(&frame, page: area.page, width: area.width, now: now)
            if pane.isShown { drawPane(&frame, besideList: area) }
        case .picker(let picker): drawPicker(&frame, picker, page: page)
        case .counts(let view): drawCounts(&frame, view, page: page)
        case .conflicts(let view): drawConflicts(&frame, view, page: page)
        case .file(let file): drawDetail(&frame, file, page: page)
        }
        drawFooter(&frame)
        if case .help(let scroll) = overlay { drawHelp(&frame, scroll: scroll, page: page) }
        if preview == nil && status.showsOverlay(now: now) { drawOverlay(&frame, now: now) }
        return frame
    }

    private func drawHeader(_ frame: inout Frame, now: Double) {
        let bar = Style(reverse: true)
        frame.fill(row: 0, style: bar)
        var parts = [" jsonstore", Display.escaped(storePath)]
        parts += itemsDescription
        let invalid = rows.invalidCount
        if invalid > 0 { parts.append("\(Self.number(invalid)) invalid") }
        if rows.conflictCount > 0 { parts.append(Self.count(rows.conflictCount, "conflict")) }
        parts.append(status.headerText(now: now))
        if let sort = layout.sortDescription { parts.append("sort \(Display.escaped(sort))") }
        let marked = selection.marks.count
        if marked > 0 { parts.append("\(Self.number(marked)) marked") }
        if let lastChange = status.lastChange { parts.append("last change \(lastChange)") }
        if let undoRefusal { parts.append("undo refused: \(undoRefusal)") }
        // The store's path or address gives way first, so the state stays in sight.
        let others = TextWidth.of(parts.joined(separator: " · ")) - TextWidth.of(parts[1])
        parts[1] = Self.shortened(parts[1], to: max(16, frame.width - others))
        frame.put(
            TextWidth.truncate(parts.joined(separator: " · "), to: frame.width), row: 0, column: 0,
            style: bar)
    }

    /// `text` cut in the middle to at most `width` columns: its start, `…`, its end, so an
    /// address keeps its scheme and first host, and its prefix.
    static func shortened(_ text: String, to width: Int) -> String {
        guard TextWidth.of(text) > width, width > 2 else { return text }
        var tail = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars.reversed() {
            let w = TextWidth.of(scalar)
            if used + w > (width - 1) / 2 { break }
            tail.insert(scalar, at: tail.startIndex)
            used += w
        }
        return TextWidth.truncate(text, to: width - used) + String(tail)
    }

    /// The header's filter and count: `6 items` with none, `filter status=done · 6 of 25
    /// items` with `--where` or `/` (the `/` text once it is kept; the footer shows it
    /// while it is typed), counting the items shown of all the store's; nothing until the
    /// first results are in (the loading phase counts then).
    private var itemsDescription: [String] {
        guard status.loaded else { return [] }  // the loading phase says how many so far
        var words = scope.map(\.text)
        if !filter.isEmpty && !filter.isEditing { words.append(filter.text) }
        guard !scope.isEmpty || !filter.isEmpty else { return [Self.count(results.count, "item")] }
        var shown = results.count
        if let matches = filter.matches {
            shown = matches.count(below: results.count)  // the items, not the invalid files
        }
        let total = Self.count(results.storeItemCount, "item")
        let count = "\(Self.number(shown)) of \(total)"
        guard !words.isEmpty else { return [count] }
        return ["filter " + Display.escaped(words.joined(separator: " ")), count]
    }

    private func drawFooter(_ frame: inout Frame) {
        let row = frame.height - 1
        let bar = Style(reverse: true)
        frame.fill(row: row, style: bar)
        if !notices.isEmpty {
            drawNotices(&frame)
            return
        }
        let text: String
        switch overlay {
        case .none, .help: text = listFooter
        case .prompt(let prompt): text = prompt.questionText ?? listFooter
        case .picker: text = " space show/hide  ↑↓ jk move  Enter apply  Esc cancel"
        case .counts: text = " ↑↓ jk move  Enter filter the list by the value  Esc back"
        case .conflicts(let view): text = view.keys
        case .file: text = " Esc back  ↑↓ scroll  q back  Ctrl-C quit"
        }
        frame.put(TextWidth.truncate(text, to: frame.width), row: row, column: 0, style: bar)
    }

    /// The footer under the rows: the filter as it is typed, the marks, the filter's
    /// count, or the keys.
    private var listFooter: String {
        if editingFilter {
            return " /" + Display.escaped(filter.text) + "▏  Enter keep  Esc clear"
        } else if !selection.marks.isEmpty {
            return
                " \(Self.number(selection.marks.count)) marked  Space mark  d delete them  e edit them  y copy ids  Esc unmark"
        } else if !filter.isEmpty {
            return
                " filter \"\(Display.escaped(filter.text))\": \(Self.number(visibleCount)) of \(Self.number(rows.count))  Esc clear  q quit"
        }
        return conflictFooter ?? ListKeys.footer
    }

    /// The notices over the footer's row, newest first: each of their lines wrapped over
    /// as many rows as it needs (a path that keeps the user's text is never cut), the
    /// older ones up to `noticeLines` in all, the last then saying how many more.
    private func drawNotices(_ frame: inout Frame) {
        let style = Style(foreground: .yellow, reverse: true)
        let room = max(1, frame.height - 2)
        var lines: [String] = []
        var shown = 0
        for notice in notices.newestFirst {
            let wrapped = notice.split(separator: "\n", omittingEmptySubsequences: false)
                .flatMap { TextWidth.wrap(String($0), to: frame.width - 1) }
            let budget = Self.noticeLines - (notices.count > shown + 1 ? 1 : 0)
            guard shown == 0 || lines.count + wrapped.count <= budget else { break }
            lines += wrapped
            shown += 1
        }
        if shown < notices.count { lines.append("… and \(notices.count - shown) more") }
        lines = Array(lines.prefix(room))
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
