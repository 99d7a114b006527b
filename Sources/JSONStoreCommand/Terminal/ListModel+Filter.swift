import JSONStore

/// The list view's `/` filter: which rows match what is typed, found by scanning the rows'
/// folded text in a `SearchIndex` (built here, or off the main queue by the app for a big
/// store), and carried through each change set without scanning every row again.
extension ListModel {
    /// From this many rows on, the search index is built off the main queue as soon as
    /// the store is loaded, so the first key typed into the filter does not wait for it.
    static let backgroundIndexThreshold = 10_000

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
    mutating func refilter() {
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

    /// Carries the filter's matches through one update: the rows that stay move by the
    /// deletions and insertions around them, and only the inserted and modified items are
    /// tested, so a live store with a filter on does not scan every row per change.
    ///
    /// - Complexity: O(m + k log k) for m matches and k changes.
    mutating func refilter(through changes: ChangeSet<Item>, previousCount: Int) {
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
        let found = retest.filter {
            SearchIndex.contains(index.text(of: $0.value, table: table), needle)
        }
        .keys.sorted()
        matches = [Int].merge(rows, found) + invalidRowMatches(needle)
    }

    /// The rows of invalid files without an item (after the items' rows) that match.
    private func invalidRowMatches(_ needle: [UInt8]) -> [Int] {
        (results.count..<rowCount).filter {
            SearchIndex.contains(SearchIndex.fold(searchText($0)), needle)
        }
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
}
