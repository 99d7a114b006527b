/// A screen's worth of cells: what the list view wants the terminal to show.
package struct Frame: Sendable {
    /// One screen cell: the text drawn there (one character, or empty after a wide one).
    struct Cell: Equatable, Sendable {
        var text: String
        var style: Style

        static let blank = Cell(text: " ", style: .plain)
    }

    let width: Int
    let height: Int
    private(set) var rows: [[Cell]]

    init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        rows = Array(repeating: Array(repeating: .blank, count: self.width), count: self.height)
    }

    /// Writes `text` at `row`, `column`, clipped to `limit` columns (or the line's end).
    /// The text must be escaped already (`Display.escaped`, `Display.heading`): no control
    /// character reaches a cell, and a frame is not scanned twice for them.
    ///
    /// - Returns: the column after the text.
    @discardableResult
    mutating func put(_ text: String, row: Int, column: Int, style: Style, limit: Int? = nil) -> Int
    {
        guard row >= 0, row < height else { return column }
        let end = min(width, column + (limit ?? width))
        var col = column
        for scalar in text.unicodeScalars {
            let w = TextWidth.of(scalar)
            if w == 0 {
                if col > 0, col - 1 < width {
                    rows[row][col - 1].text.unicodeScalars.append(scalar)
                }
                continue
            }
            if col + w > end { break }
            if col >= 0 {
                rows[row][col] = Cell(text: String(scalar), style: style)
                if w == 2 { rows[row][col + 1] = Cell(text: "", style: style) }
            }
            col += w
        }
        return col
    }

    /// Fills columns `from..<to` of `row` with spaces in `style`.
    mutating func fill(row: Int, from: Int = 0, to: Int? = nil, style: Style) {
        guard row >= 0, row < height else { return }
        for col in max(0, from)..<min(width, to ?? width) {
            rows[row][col] = Cell(text: " ", style: style)
        }
    }

    /// The terminal bytes that draw `row` from its first column: text with as few style
    /// changes as the cells need, ending in a reset.
    func serialize(row: Int, color: Bool) -> String {
        var out = ""
        var current: Style?
        for cell in rows[row] {
            if cell.style != current {
                out += cell.style.sgr(color: color)
                current = cell.style
            }
            out += cell.text
        }
        return out + "\u{1B}[0m"
    }

    /// The frame's text without styles, one string per row (for tests and captures).
    var text: [String] {
        rows.map { row in row.map(\.text).joined() }
    }
}
