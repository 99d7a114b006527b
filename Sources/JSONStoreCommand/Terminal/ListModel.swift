import JSONStore

/// The list view's state: what is shown, what is selected, what is highlighted. Pure
/// logic, no terminal: the tests drive it directly, and `frame` draws it.
struct ListModel {
    enum Highlight { case inserted, modified }

    /// What a key press asks the program to do.
    enum Action: Equatable { case none, quit }

    /// How long rows stay highlighted after they changed, in seconds.
    static let highlightDuration = 1.0
    /// How long loading must last before the overlay appears, in seconds, so a small
    /// store never flickers.
    static let overlayDelay = 0.15

    let storePath: String
    let requestedColumns: [String]?

    private(set) var results = Results()
    private(set) var loaded = false
    private(set) var state = StoreState.loading(done: 0, total: 0)
    /// When the current loading or resync began (monotonic seconds).
    private(set) var busySince: Double?
    private(set) var lastChange: String?
    private(set) var columns: [String] = ["id"]
    /// Each column's widest text seen so far: the header, a sample, every changed item.
    private(set) var naturalWidths: [Int] = [2]
    /// Invalid files that have no row of their own (never valid, or a bad name).
    private(set) var invalidRows: [InvalidFile] = []
    /// All invalid files, for the header (kept here: `Results.invalid` sorts on each call).
    private(set) var invalidCount = 0
    private(set) var highlights: [String: (kind: Highlight, until: Double)] = [:]

    private(set) var selected = 0
    private(set) var selectedID: String?
    private(set) var top = 0
    private(set) var filter = ""
    private(set) var editingFilter = false
    /// The rows that match the filter, ascending; `nil` when there is no filter.
    private(set) var matches: [Int]?
    /// The item shown whole, and how far it is scrolled.
    private(set) var detail: (id: String, scroll: Int)?

    init(storePath: String, requestedColumns: [String]?) {
        self.storePath = storePath
        self.requestedColumns = requestedColumns
    }

    var table: Table { Table(columns: columns) }

    /// All rows: the items, then the invalid files without an item.
    var rowCount: Int { results.count + invalidRows.count }

    /// The rows on show: all of them, or those matching the filter.
    var visibleCount: Int { matches?.count ?? rowCount }

    func row(atVisible index: Int) -> Int { matches?[index] ?? index }

    // MARK: Store events

    mutating func apply(_ change: StoreChange, now: Double, clock: String) {
        switch change {
        case .initial(let results):
            self.results = results
            loaded = true
            columns = Table.columns(for: results.prefix(1_000), requested: requestedColumns)
            naturalWidths = columns.map { TextWidth.of($0.uppercased()) }
            widen(with: results.prefix(1_000))
        case .update(let results, let changes):
            self.results = results
            lastChange = clock
            for item in changes.inserted { highlights[item.id] = (.inserted, now + Self.highlightDuration) }
            for modification in changes.modified {
                highlights[modification.new.id] = (.modified, now + Self.highlightDuration)
            }
            widen(with: changes.inserted + changes.modified.map(\.new))
        case .error:
            return  // the state says failed; the last list stays on screen
        }
        let invalid = results.invalid
        invalidCount = invalid.count
        invalidRows = invalid.filter { file in
            file.id.map { results.index(ofID: $0) == nil } ?? true
        }
        if !filter.isEmpty { refilter() }
        followSelection()
    }

    mutating func setState(_ state: StoreState, now: Double) {
        switch state {
        case .loading, .resyncing:
            if busySince == nil { busySince = now }
        case .live, .failed:
            busySince = nil
        }
        self.state = state
    }

    private mutating func widen<S: Sequence>(with items: S) where S.Element == Item {
        let table = self.table
        for item in items {
            for (i, text) in table.cells(item).enumerated() {
                naturalWidths[i] = max(naturalWidths[i], TextWidth.of(text))
            }
        }
    }

    /// Drops highlights that have run out; returns when the next one does, if any.
    mutating func expireHighlights(now: Double) -> Double? {
        highlights = highlights.filter { $0.value.until > now }
        return highlights.values.map(\.until).min()
    }

    // MARK: Selection and filter

    /// Keeps the selection on its item when rows come and go above it.
    private mutating func followSelection() {
        if let id = selectedID, let index = results.index(ofID: id) {
            if let matches {
                if let position = matches.firstIndex(of: index) { selected = position }
            } else {
                selected = index
            }
        }
        clampSelection()
    }

    private mutating func clampSelection() {
        selected = max(0, min(selected, visibleCount - 1))
        let row = visibleCount > 0 ? row(atVisible: selected) : -1
        selectedID = row >= 0 && row < results.count ? results[row].id : nil
    }

    /// The text of row `row`, for filtering: its cells, or the invalid file and error.
    func searchText(_ row: Int) -> String {
        if row < results.count { return table.cells(results[row]).joined(separator: " ") }
        let file = invalidRows[row - results.count]
        return Display.escaped(file.name) + " " + file.error.description
    }

    private mutating func refilter() {
        guard !filter.isEmpty else {
            matches = nil
            return
        }
        let needle = filter.lowercased()
        matches = (0..<rowCount).filter { searchText($0).lowercased().contains(needle) }
    }

    /// Handles a key; `page` is the number of rows on screen.
    mutating func handle(_ key: Key, page: Int) -> Action {
        if key == .interrupt { return .quit }
        if let shown = detail {
            switch key {
            case .escape, .character("q"), .enter: detail = nil
            case .up, .character("k"): detail = (shown.id, max(0, shown.scroll - 1))
            case .down, .character("j"): detail = (shown.id, shown.scroll + 1)
            case .pageUp: detail = (shown.id, max(0, shown.scroll - page))
            case .pageDown: detail = (shown.id, shown.scroll + page)
            case .home, .character("g"): detail = (shown.id, 0)
            default: break
            }
            return .none
        }
        if editingFilter {
            switch key {
            case .escape:
                editingFilter = false
                filter = ""
            case .enter: editingFilter = false
            case .backspace: if !filter.isEmpty { filter.removeLast() }
            case .character(let c): filter.append(c)
            default: return .none
            }
            refilter()
            followSelection()
            return .none
        }
        switch key {
        case .character("q"): return .quit
        case .up, .character("k"): selected -= 1
        case .down, .character("j"): selected += 1
        case .pageUp: selected -= max(1, page)
        case .pageDown: selected += max(1, page)
        case .home, .character("g"): selected = 0
        case .end, .character("G"): selected = visibleCount - 1
        case .character("/"):
            editingFilter = true
            return .none
        case .escape:
            filter = ""
            refilter()
        case .enter:
            if let id = selectedID { detail = (id, 0) }
            return .none
        default:
            return .none
        }
        clampSelection()
        return .none
    }

    /// Moves the scroll position so the selection is on screen.
    mutating func scroll(page: Int) {
        if selected < top { top = selected }
        if selected >= top + page { top = selected - page + 1 }
        top = max(0, min(top, max(0, visibleCount - page)))
    }
}
