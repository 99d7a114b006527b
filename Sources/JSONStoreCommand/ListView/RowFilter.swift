import JSONStore

/// The list view's `/` filter: what is typed, which rows match it, and how they are found.
///
/// What is typed is words and conditions: `status=done priority>2 tea` keeps the items
/// where every condition holds (the same parser and meaning as `--where`: a word with
/// `=`, `!=`, `<`, `>`, `~`, or `!FIELD`) and whose row holds the other words' text. Text
/// is found by scanning the rows' folded text in a `SearchIndex` (built here, or off the
/// main queue by the app for a big store), and the matches are carried through each change
/// set without scanning every row again.
struct RowFilter {
    /// From this many rows on, the search index is built off the main queue as soon as
    /// the filter opens, so the first key typed into it does not wait for it.
    static let backgroundIndexThreshold = 10_000

    /// The text typed.
    private(set) var text = ""
    /// Whether keys go to the filter.
    private(set) var isEditing = false
    /// The rows that match, ascending; `nil` when there is no filter.
    private(set) var matches: [Int]?
    /// Each row's text for the filter, laid out once and then kept up to date; `nil` until
    /// the filter or a background build needs it.
    private(set) var searchIndex: SearchIndex?
    /// The version of the results whose search index is being built off the main queue,
    /// and the change sets applied since, to bring it up to date when it arrives.
    private var indexBuild: (version: Int, changes: [ChangeSet<Item>])?
    /// The folded text that `matches` was found for, with the matching items' rows and
    /// texts, while the results stay the same: a longer text only needs to look at these.
    private var lastSearch: (needle: [UInt8], rows: [Int], texts: [[UInt8]])?
    /// The conditions in `text`, and the folded text of its other words.
    private var conditions: [Condition] = []
    private var needle: [UInt8] = []

    var isEmpty: Bool { text.isEmpty }

    /// Sets the filter to `text` at once (the counts view's Enter on a value).
    mutating func set(_ text: String) {
        self.text = text
        isEditing = false
    }

    /// Splits `text` into conditions and words.
    private mutating func parse() {
        conditions = []
        var words: [Substring] = []
        for token in Self.tokens(text) {
            let looksLikeCondition =
                token.contains(where: { "=<>~".contains($0) })
                || (token.hasPrefix("!") && token.count > 1)
            if looksLikeCondition, let condition = try? Condition(parsing: String(token)) {
                conditions.append(condition)
            } else {
                words.append(token)
            }
        }
        needle = SearchIndex.fold(words.joined(separator: " "))
    }

    /// `text` split at spaces, but not inside double quotes, which go: `status="in
    /// progress" tea` is `status=in progress` and `tea`.
    static func tokens(_ text: String) -> [Substring] {
        var tokens: [Substring] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if character == " " && !quoted {
                if !current.isEmpty { tokens.append(Substring(current)) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(Substring(current)) }
        return tokens
    }

    /// Whether `item`, whose folded row text is `text`, passes.
    private func passes(_ item: Item, _ text: [UInt8]) -> Bool {
        conditions.allSatisfy { $0.matches(item) }
            && (needle.isEmpty || SearchIndex.contains(text, needle))
    }

    /// `/`: keys go to the filter.
    mutating func begin() { isEditing = true }

    /// A key while the filter is edited; returns whether the text changed.
    mutating func edit(_ key: Key) -> Bool {
        switch key {
        case .escape:
            isEditing = false
            text = ""
        case .enter: isEditing = false
        case .backspace: if !text.isEmpty { text.removeLast() }
        case .character(let c): text.append(c)
        default: return false
        }
        return true
    }

    /// Esc in the list: no filter.
    mutating func clear() { text = "" }

    /// The rows' text changed (other columns): everything laid out is stale.
    mutating func columnsChanged() {
        searchIndex = nil
        indexBuild = nil
        lastSearch = nil
    }

    /// Keeps what is laid out in step with one update of the rows.
    mutating func rowsChanged(_ changes: ChangeSet<Item>, table: Table) {
        searchIndex?.apply(changes, table: table)
        indexBuild?.changes.append(changes)
        lastSearch = nil
    }

    /// The rows were replaced whole (a new observation).
    mutating func rowsReplaced() { lastSearch = nil }

    /// Finds the rows of `rows` that match.
    ///
    /// - Complexity: O(n) byte scans; rows are laid out only the first time (and then only
    ///   as change sets touch them). A key typed onto the end of the text looks only at
    ///   the rows that matched before it: O(m) for m of them.
    mutating func refilter(_ rows: RowSet, table: Table) {
        guard !text.isEmpty else {
            matches = nil
            lastSearch = nil
            return
        }
        parse()
        let index = searchIndex ?? SearchIndex(rows.results, table: table)
        if searchIndex == nil {
            searchIndex = index
            indexBuild = nil  // built here after all; the one on its way is not needed
        }
        var found: [Int] = []
        var texts: [[UInt8]] = []
        if conditions.isEmpty, let last = lastSearch, needle.starts(with: last.needle) {
            for (row, text) in zip(last.rows, last.texts) where SearchIndex.contains(text, needle) {
                found.append(row)
                texts.append(text)
            }
        } else {
            let (needle, conditions) = (self.needle, self.conditions)  // read once
            for (row, item) in rows.results.enumerated() {
                let text = index.text(of: item, table: table)
                guard conditions.isEmpty || conditions.allSatisfy({ $0.matches(item) }),
                    needle.isEmpty || SearchIndex.contains(text, needle)
                else { continue }
                found.append(row)
                texts.append(text)
            }
        }
        lastSearch = conditions.isEmpty ? (needle, found, texts) : nil
        matches = found + invalidRowMatches(rows, needle, table: table)
    }

    /// Carries the matches through one update: the rows that stay move by the deletions
    /// and insertions around them, and only the inserted and modified items are tested,
    /// so a live store with a filter on does not scan every row per change.
    ///
    /// - Complexity: O(m + k log k) for m matches and k changes.
    mutating func refilter(
        _ rows: RowSet, through changes: ChangeSet<Item>, previousCount: Int, table: Table
    ) {
        guard let old = matches, !text.isEmpty, let index = searchIndex else {
            return refilter(rows, table: table)
        }
        var retest: [Int: Item] = [:]  // the new rows to test again, with their items
        for row in changes.insertions + changes.modificationsNew { retest[row] = rows.results[row] }
        var kept: [Int] = []
        kept.reserveCapacity(old.count)
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
            if retest[new] == nil { kept.append(new) }
        }
        let found = retest.filter { passes($0.value, index.text(of: $0.value, table: table)) }
            .keys.sorted()
        matches = [Int].merge(kept, found) + invalidRowMatches(rows, needle, table: table)
    }

    /// The rows of invalid files without an item (after the items' rows) that match.
    private func invalidRowMatches(_ rows: RowSet, _ needle: [UInt8], table: Table) -> [Int] {
        guard conditions.isEmpty else { return [] }  // conditions are on items
        return (rows.results.count..<rows.count).filter {
            SearchIndex.contains(SearchIndex.fold(rows.searchText($0, table: table)), needle)
        }
    }

    /// What to build a search index of off the main queue, if the store is big enough for
    /// it to matter and none is built or on its way; `install` takes the result.
    mutating func searchIndexToBuild(_ results: Results<Item>, table: Table) -> Results<Item>? {
        guard searchIndex == nil, indexBuild == nil,
            results.count >= Self.backgroundIndexThreshold
        else { return nil }
        indexBuild = (results.version, [])
        return results
    }

    /// Takes a search index built off the main queue for results `version`, brought up to
    /// date with the change sets applied since. One no longer wanted (the results were
    /// replaced, or the filter built its own) is dropped.
    mutating func install(_ index: SearchIndex, for version: Int, table: Table) {
        guard let build = indexBuild, build.version == version, searchIndex == nil else { return }
        var index = index
        for changes in build.changes { index.apply(changes, table: table) }
        searchIndex = index
        indexBuild = nil
    }
}
