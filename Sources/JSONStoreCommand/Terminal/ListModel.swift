import JSONStore

/// The list view's state: what is shown, what is selected, what is highlighted. Pure
/// logic, no terminal: the tests drive it directly, and `frame` draws it.
struct ListModel {
    enum Highlight { case inserted, modified }

    /// What a key press asks the program to do: nothing more, quit, observe the store
    /// again in the order `sort` now says, open a file of the store in the editor, create
    /// an item and open it, or delete one.
    enum Action: Equatable {
        case none, quit, sort
        case edit(file: String)
        case create(id: String, template: JSONObject)
        case delete(id: String)
    }

    /// How long rows stay highlighted after they changed, in seconds.
    static let highlightDuration = 1.0
    /// How long loading must last before the overlay appears, in seconds, so a small
    /// store never flickers.
    static let overlayDelay = 0.15

    let storePath: String
    /// The columns asked for (`--columns`, or picked with `c`); `nil` for the most common
    /// fields. Set through `relayColumns`.
    var requestedColumns: [String]?
    /// The order the results are observed in (`--sort`, or `s` and `S`); empty for by id.
    var sort: [SortField]
    /// The column picker, while it is open.
    var picker: ColumnPicker?
    /// A message for the footer until the next key (a field no item has, an edit that
    /// failed).
    var notice: String?
    /// The question the footer asks (a new item's id, whether to delete), while it does.
    var prompt: Prompt?

    private(set) var results = Results<Item>()
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
    private(set) var highlights: [UTF8Key: (kind: Highlight, until: Double)] = [:]

    private(set) var selected = 0
    private(set) var selectedID: String?
    private(set) var top = 0
    private(set) var filter = ""
    private(set) var editingFilter = false
    /// The rows that match the filter, ascending; `nil` when there is no filter.
    private(set) var matches: [Int]?
    /// The file shown whole (Enter), as it is on disk.
    private(set) var detail: FileView?
    /// The file the app is to read (again) for the detail view: set by Enter and by
    /// changes that touch the file shown, cleared by `showFile`.
    private(set) var fileToRead: String?
    /// Each row's text for the filter, laid out once and then kept up to date; `nil` until
    /// the filter or a background build needs it.
    private var searchIndex: SearchIndex?
    /// The version of the results whose search index is being built off the main queue,
    /// and the change sets applied since, to bring it up to date when it arrives.
    private var indexBuild: (version: Int, changes: [ChangeSet<Item>])?
    /// From this many rows on, the search index is built off the main queue as soon as
    /// the store is loaded, so the first key typed into the filter does not wait for it.
    static let backgroundIndexThreshold = 10_000
    /// The folded filter that `matches` was found for, with the matching items' rows and
    /// texts, while the results stay the same: a longer filter only needs to look at these.
    private var lastSearch: (needle: [UInt8], rows: [Int], texts: [[UInt8]])?

    init(storePath: String, requestedColumns: [String]?, sort: [SortField] = []) {
        self.storePath = storePath
        self.requestedColumns = requestedColumns
        self.sort = sort
    }

    var table: Table { Table(columns: columns) }

    /// All rows: the items, then the invalid files without an item.
    var rowCount: Int { results.count + invalidRows.count }

    /// The rows on show: all of them, or those matching the filter.
    var visibleCount: Int { matches?.count ?? rowCount }

    func row(atVisible index: Int) -> Int { matches?[index] ?? index }

    // MARK: Store events

    mutating func apply(_ change: StoreChange<Item>, now: Double, clock: String) {
        var update: (changes: ChangeSet<Item>, previousCount: Int)?
        switch change {
        case .initial(let results):
            self.results = results
            loaded = true
            layOutColumns()
        case .update(let results, let changes):
            update = (changes, self.results.count)
            self.results = results
            lastChange = clock
            for item in changes.inserted { highlights[UTF8Key(item.id)] = (.inserted, now + Self.highlightDuration) }
            for modification in changes.modified {
                highlights[UTF8Key(modification.new.id)] = (.modified, now + Self.highlightDuration)
            }
            widen(with: changes.inserted + changes.modified.map(\.new))
            if let shown = detail?.name, Self.touches(changes, shown) { fileToRead = shown }
            let table = self.table
            searchIndex?.apply(changes, table: table)
            indexBuild?.changes.append(changes)
        case .error:
            return  // the state says failed; the last list stays on screen
        }
        lastSearch = nil
        let invalid = results.invalid
        invalidCount = invalid.count
        invalidRows = invalid.filter { file in
            file.id.map { results.index(ofID: $0) == nil } ?? true
        }
        if let update, matches != nil {
            refilter(through: update.changes, previousCount: update.previousCount)
        } else if !filter.isEmpty {
            refilter()
        }
        followSelection()
    }

    /// Chooses the columns (those asked for, or the most common fields of the first
    /// thousand items) and their widths.
    private mutating func layOutColumns() {
        columns = Table.columns(for: results.prefix(1_000), requested: requestedColumns)
        naturalWidths = columns.map { TextWidth.of($0.uppercased()) }
        widen(with: results.prefix(1_000))
        searchIndex = nil  // the columns, and so every row's text, may have changed
        indexBuild = nil
        lastSearch = nil
    }

    /// Shows `columns` (after the id), or the most common fields for `nil`: the rows'
    /// text changes, so a filter is applied again.
    mutating func relayColumns(_ columns: [String]?) {
        requestedColumns = columns
        layOutColumns()
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
                if let position = matches.position(ofAscending: index) { selected = position }
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

    /// Finds the rows that match the filter.
    ///
    /// - Complexity: O(n) byte scans; rows are laid out only the first time (and then only
    ///   as change sets touch them). A key typed onto the end of the filter looks only at
    ///   the rows that matched before it: O(m) for m of them.
    private mutating func refilter() {
        guard !filter.isEmpty else {
            matches = nil
            lastSearch = nil
            return
        }
        let needle = SearchIndex.fold(filter)
        let table = self.table
        let index = searchIndex ?? SearchIndex(results, table: table)
        if searchIndex == nil {
            searchIndex = index
            indexBuild = nil  // built here after all; the one on its way is not needed
        }
        var rows: [Int] = []
        var texts: [[UInt8]] = []
        if let last = lastSearch, needle.starts(with: last.needle) {
            for (row, text) in zip(last.rows, last.texts) where SearchIndex.contains(text, needle) {
                rows.append(row)
                texts.append(text)
            }
        } else {
            for (row, item) in results.enumerated() {
                let text = index.text(of: item, table: table)
                guard SearchIndex.contains(text, needle) else { continue }
                rows.append(row)
                texts.append(text)
            }
        }
        lastSearch = (needle, rows, texts)
        matches = rows + invalidRowMatches(needle)
    }

    /// What to build a search index of off the main queue, if the store is big enough for
    /// it to matter and none is built or on its way; `install` takes the result.
    mutating func searchIndexToBuild() -> (results: Results<Item>, table: Table)? {
        guard loaded, searchIndex == nil, indexBuild == nil,
            results.count >= Self.backgroundIndexThreshold
        else { return nil }
        indexBuild = (results.version, [])
        return (results, table)
    }

    /// Takes a search index built off the main queue for results `version`, bringing it up
    /// to date with the change sets applied since. One that is no longer wanted (the
    /// results were replaced, or the filter built its own) is dropped.
    mutating func install(_ index: SearchIndex, for version: Int) {
        guard let build = indexBuild, build.version == version, searchIndex == nil else { return }
        var index = index
        for changes in build.changes { index.apply(changes, table: table) }
        searchIndex = index
        indexBuild = nil
    }

    var hasSearchIndex: Bool { searchIndex != nil }

    /// Carries the filter's matches through one update: the rows that stay move by the
    /// deletions and insertions around them, and only the inserted and modified items are
    /// tested, so a live store with a filter on does not scan every row per change.
    ///
    /// - Complexity: O(m + k log k) for m matches and k changes.
    private mutating func refilter(through changes: ChangeSet<Item>, previousCount: Int) {
        guard let old = matches, !filter.isEmpty, let index = searchIndex else { return refilter() }
        let needle = SearchIndex.fold(filter)
        let table = self.table
        // The new results' rows to test again, with their items.
        var retest: [Int: Item] = [:]
        for row in changes.insertions + changes.modificationsNew { retest[row] = results[row] }
        var rows: [Int] = []
        rows.reserveCapacity(old.count)
        var deletion = 0
        var insertion = 0
        let deletions = changes.deletions
        let insertions = changes.insertions
        for row in old where row < previousCount {
            while deletion < deletions.count && deletions[deletion] < row { deletion += 1 }
            if deletion < deletions.count && deletions[deletion] == row { continue }
            let remaining = row - deletion  // its index once the deletions are gone
            while insertion < insertions.count && insertions[insertion] <= remaining + insertion {
                insertion += 1
            }
            let new = remaining + insertion
            if retest[new] == nil { rows.append(new) }
        }
        let found = retest.filter { SearchIndex.contains(index.text(of: $0.value, table: table), needle) }
            .keys.sorted()
        matches = [Int].merge(rows, found) + invalidRowMatches(needle)
    }

    /// The rows of invalid files without an item (after the items' rows) that match.
    private func invalidRowMatches(_ needle: [UInt8]) -> [Int] {
        (results.count..<rowCount).filter { SearchIndex.contains(SearchIndex.fold(searchText($0)), needle) }
    }

    /// Handles a key; `page` is the number of rows on screen.
    mutating func handle(_ key: Key, page: Int) -> Action {
        if key == .interrupt { return .quit }
        notice = nil
        if picker != nil { return handlePicker(key) }
        if prompt != nil { return handlePrompt(key) }
        if let shown = detail {
            switch key {
            case .escape, .character("q"), .enter:
                detail = nil
                fileToRead = nil
            case .up, .character("k"): detail?.scroll = max(0, shown.scroll - 1)
            case .down, .character("j"): detail?.scroll = shown.scroll + 1
            case .pageUp: detail?.scroll = max(0, shown.scroll - page)
            case .pageDown: detail?.scroll = shown.scroll + page
            case .home, .character("g"): detail?.scroll = 0
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
        case .character("s"): return cycleSort()
        case .character("S"): return reverseSort()
        case .character("c"):
            openPicker()
            return .none
        case .character("e"): return editSelected()
        case .character("n"):
            prompt = .newID("")
            return .none
        case .character("d"):
            if let selectedID { prompt = .delete(selectedID) }
            return .none
        case .escape:
            filter = ""
            refilter()
        case .enter:
            openSelectedFile()
            return .none
        default:
            return .none
        }
        clampSelection()
        return .none
    }

    /// Shows the selected row's file, an item's or an invalid file's; the app reads it.
    private mutating func openSelectedFile() {
        guard let (name, id) = selectedFile else { return }
        detail = FileView(name: name, id: id)
        fileToRead = name
    }

    /// The selected row's file name and item id (an invalid file may have none).
    var selectedFile: (name: String, id: String?)? {
        guard visibleCount > 0 else { return nil }
        let row = row(atVisible: selected)
        if row < results.count { return (results[row].fileName, results[row].id) }
        let file = invalidRows[row - results.count]
        return (file.name, file.id)
    }

    /// The selected item, if the row is one.
    var selectedItem: Item? {
        guard visibleCount > 0 else { return nil }
        let row = row(atVisible: selected)
        return row < results.count ? results[row] : nil
    }

    /// Takes what reading `name` gave, if it is still the file shown.
    mutating func showFile(_ name: String, _ outcome: Result<[UInt8]?, StoreError>) {
        guard detail?.name == name else { return }
        detail?.show(outcome)
        if fileToRead == name { fileToRead = nil }
    }

    /// Whether `changes` touch the file `name`.
    private static func touches(_ changes: ChangeSet<Item>, _ name: String) -> Bool {
        changes.invalid.contains { $0.name == name } || changes.resolved.contains(name)
            || changes.modified.contains { $0.new.fileName == name }
            || changes.inserted.contains { $0.fileName == name } || changes.deleted.contains { $0.fileName == name }
    }

    /// Moves the scroll position so the selection is on screen.
    mutating func scroll(page: Int) {
        if selected < top { top = selected }
        if selected >= top + page { top = selected - page + 1 }
        top = max(0, min(top, max(0, visibleCount - page)))
    }
}
