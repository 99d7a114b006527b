import JSONStore

/// Which row is selected, by its place among the rows on show and by its item's id, the
/// first row on screen, and the rows marked for a bulk action. The ids are what the
/// selection and the marks hold on to: as rows come and go, or an invalid file turns
/// valid, they go with their items.
struct Selection: Equatable {
    /// The selected row's place among the rows on show.
    private(set) var index = 0
    /// The selected row's item id (an invalid file's row has its would-be item's); `nil` for
    /// a file with no id, or with no rows.
    private(set) var id: String?
    /// The first row on screen.
    private(set) var top = 0
    /// The ids of the marked rows (Space).
    private(set) var marks: Set<UTF8Key> = []

    /// The marked ids, in id order (by bytes).
    var marked: [String] { marks.sorted().map(\.string) }

    func isMarked(_ id: String) -> Bool { marks.contains(UTF8Key(id)) }

    /// Space: marks the selected row, or unmarks it, and moves down.
    mutating func toggleMark(in visible: VisibleRows) {
        guard let id else { return }
        if marks.remove(UTF8Key(id)) == nil { marks.insert(UTF8Key(id)) }
        move(by: 1, in: visible)
    }

    mutating func clearMarks() { marks.removeAll() }

    /// Selects the row `index` of `visible`, or the nearest there is.
    mutating func select(_ index: Int, in visible: VisibleRows) {
        self.index = max(0, min(index, visible.count - 1))
        id = visible.id(at: self.index)
    }

    /// Selects the row of the item `id`, if it is on show; returns whether it is.
    mutating func select(id: String, in visible: VisibleRows) -> Bool {
        guard let row = visible.rows.row(ofID: id), let shown = visible.index(ofRow: row) else {
            return false
        }
        select(shown, in: visible)
        return true
    }

    /// Moves as a key asks (↑ ↓, a page of `page` rows, the first or last row).
    mutating func move(_ intent: ListKeys.Intent, page: Int, in visible: VisibleRows) {
        switch intent {
        case .up: move(by: -1, in: visible)
        case .down: move(by: 1, in: visible)
        case .pageUp: move(by: -max(1, page), in: visible)
        case .pageDown: move(by: max(1, page), in: visible)
        case .first: select(0, in: visible)
        case .last: select(visible.count - 1, in: visible)
        default: break
        }
    }

    /// Moves by `offset` rows.
    mutating func move(by offset: Int, in visible: VisibleRows) {
        select(index + offset, in: visible)
    }

    /// After the rows changed: back on the selected item wherever it went, else the row now
    /// at the same place.
    mutating func follow(in visible: VisibleRows) {
        if let id, let row = visible.rows.row(ofID: id), let shown = visible.index(ofRow: row) {
            index = shown
        }
        select(index, in: visible)
        if !marks.isEmpty { marks = marks.filter { visible.rows.row(ofID: $0.string) != nil } }
    }

    /// Scrolls so the selection is on a screen of `page` rows.
    mutating func scroll(page: Int, count: Int) {
        if index < top { top = index }
        if index >= top + page { top = index - page + 1 }
        top = max(0, min(top, max(0, count - page)))
    }
}
