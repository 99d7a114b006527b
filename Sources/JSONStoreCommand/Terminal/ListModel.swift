import JSONStore

/// The list view's state: what is shown, what is selected, what is highlighted. Pure
/// logic, no terminal: the tests drive it directly, and `frame` draws it.
///
/// This file takes the store's changes and state; `ListModel+Keys` what a key does and the
/// selection, `ListModel+Filter` the `/` filter, `ListModel+Columns` sorting and the column
/// picker, `ListModel+Editing` the `e`/`n`/`d` keys, and `ListModel+Render` draws a frame.
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

    // What the store says: set only in this file, as changes and states arrive.
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

    // What the keys and the filter move: set in ListModel+Keys and ListModel+Filter (a
    // setter kept `private` would reach no further than this file); the app and the tests
    // only read it and send keys.
    var selected = 0
    var selectedID: String?
    var top = 0
    var filter = ""
    var editingFilter = false
    /// The rows that match the filter, ascending; `nil` when there is no filter.
    var matches: [Int]?
    /// The file shown whole (Enter), as it is on disk.
    var detail: FileView?
    /// The file the app is to read (again) for the detail view: set by Enter and by
    /// changes that touch the file shown, cleared by `showFile`.
    var fileToRead: String?
    /// Each row's text for the filter, laid out once and then kept up to date; `nil` until
    /// the filter or a background build needs it.
    var searchIndex: SearchIndex?
    /// The version of the results whose search index is being built off the main queue,
    /// and the change sets applied since, to bring it up to date when it arrives.
    var indexBuild: (version: Int, changes: [ChangeSet<Item>])?
    /// The folded filter that `matches` was found for, with the matching items' rows and
    /// texts, while the results stay the same: a longer filter only needs to look at these.
    var lastSearch: (needle: [UInt8], rows: [Int], texts: [[UInt8]])?

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
            for item in changes.inserted {
                highlights[UTF8Key(item.id)] = (.inserted, now + Self.highlightDuration)
            }
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
        naturalWidths = columns.map { TextWidth.of(Display.heading($0)) }
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
            || changes.inserted.contains { $0.fileName == name }
            || changes.deleted.contains { $0.fileName == name }
    }
}
