import JSONStore

/// The list view's rows: the store's results in order, then the invalid files that have no
/// row of their own (never valid, or a name that is no id).
struct RowSet {
    private(set) var results = Results<Item>()
    /// Invalid files without an item of their own, after the items' rows.
    private(set) var invalidRows: [InvalidFile] = []
    /// Every invalid file, for the header (kept: `Results.invalid` sorts on each call).
    private(set) var invalidCount = 0
    /// The items that have conflicts, and how many conflicts there are.
    private(set) var conflicted: Set<UTF8Key> = []
    private(set) var conflictCount = 0

    /// Every row: the items, then the invalid files without one.
    var count: Int { results.count + invalidRows.count }

    /// Takes the results of a change, and works the invalid rows out again.
    mutating func replace(with results: Results<Item>) {
        self.results = results
        let invalid = results.invalid
        invalidCount = invalid.count
        invalidRows = invalid.filter { file in
            file.id.map { results.index(ofID: $0) == nil } ?? true
        }
        let conflicts = results.conflicts
        conflictCount = conflicts.count
        conflicted = Set(conflicts.map { UTF8Key($0.id) })
    }

    /// Whether the item `id` has conflicts.
    func hasConflicts(_ id: String) -> Bool { conflicted.contains(UTF8Key(id)) }

    /// The item `id`, if it has a row.
    func item(ofID id: String) -> Item? { results.index(ofID: id).map { results[$0] } }

    /// The item of `row`, if the row is one.
    func item(at row: Int) -> Item? { row < results.count ? results[row] : nil }

    /// The invalid file of `row`, if the row is one without an item.
    func invalidFile(at row: Int) -> InvalidFile? {
        row >= results.count ? invalidRows[row - results.count] : nil
    }

    /// The id of `row`'s item, or of the item an invalid file's row would hold.
    func id(at row: Int) -> String? { item(at: row)?.id ?? invalidFile(at: row)?.id }

    /// The file of `row` and the item it holds (an invalid file may have none).
    func file(at row: Int) -> (name: String, id: String?) {
        if let item = item(at: row) { return (item.fileName, item.id) }
        let file = invalidRows[row - results.count]
        return (file.name, file.id)
    }

    /// The row of the item `id`, or of its invalid file when it has no item.
    func row(ofID id: String) -> Int? {
        if let row = results.index(ofID: id) { return row }
        return invalidRows.firstIndex { $0.id == id }.map { results.count + $0 }
    }

    /// The text of `row` for the `/` filter: its cells, or the invalid file and its error.
    func searchText(_ row: Int, table: Table) -> String {
        if let item = item(at: row) { return table.cells(item).joined(separator: " ") }
        let file = invalidRows[row - results.count]
        return Display.escaped(file.name) + " " + file.error.description
    }
}

/// The rows on show: all of them, or those a filter keeps (`matches`, ascending).
struct VisibleRows {
    let rows: RowSet
    let matches: [Int]?

    var count: Int { matches?.count ?? rows.count }

    /// The row shown at `index`.
    func row(at index: Int) -> Int { matches?[index] ?? index }

    /// Where `row` is shown, if it is.
    func index(ofRow row: Int) -> Int? {
        guard let matches else { return row < rows.count ? row : nil }
        return matches.position(ofAscending: row)
    }

    /// The id shown at `index`: an item's, or that of an invalid file's item.
    func id(at index: Int) -> String? {
        index >= 0 && index < count ? rows.id(at: row(at: index)) : nil
    }
}
