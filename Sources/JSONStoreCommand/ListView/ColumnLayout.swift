import JSONStore

/// The list view's columns and order: which columns (asked for with `--columns` or `c`, or
/// the items' most common fields), how wide each has been, and the sort keys (`--sort`,
/// `s`, `S`).
struct ColumnLayout {
    /// The columns asked for after the id; `nil` for the most common fields.
    private(set) var requested: [String]?
    /// The columns shown, `id` first.
    private(set) var columns: [String] = ["id"]
    /// Each column's widest text seen so far: the header, a sample, every changed item.
    private(set) var naturalWidths: [Int] = [2]
    /// The order the results are observed in; empty for by id.
    private(set) var sort: [SortField]

    init(requested: [String]?, sort: [SortField]) {
        self.requested = requested
        self.sort = sort
    }

    var table: Table { Table(columns: columns) }

    /// Chooses the columns for `results` (those asked for, or the most common fields of
    /// the first thousand items) and their widths.
    mutating func layOut<C: Collection>(_ results: C) where C.Element == Item {
        columns = Table.columns(for: results.prefix(1_000), requested: requested)
        naturalWidths = columns.map { TextWidth.of(Display.heading($0)) }
        widen(with: results.prefix(1_000))
    }

    /// Shows `columns` after the id, or the most common fields for `nil`.
    mutating func request(_ columns: [String]?, for results: Results<Item>) {
        requested = columns
        layOut(results)
    }

    /// Whether an update may change the columns: with no columns asked for, they follow
    /// the items, so a view started on an empty store gains the fields of the items that
    /// arrive, and loses those of the items that leave (`fit` then chooses them).
    ///
    /// - Complexity: O(k) for k changes.
    func follows(_ changes: ChangeSet<Item>) -> Bool {
        guard requested == nil else { return false }
        return !changes.inserted.isEmpty || !changes.deleted.isEmpty
            || changes.modified.contains { m in
                m.changes.contains { ($0.old == nil || $0.new == nil) && $0.path.isTopLevel }
            }
    }

    /// With no columns asked for, the most common fields of `items` (the rows a filter
    /// keeps, or every item); returns whether the columns changed. No rows leave them.
    ///
    /// - Complexity: O(1,000 items).
    mutating func fit<C: Collection>(_ items: C) -> Bool where C.Element == Item {
        guard requested == nil, !items.isEmpty else { return false }
        let fresh = Table.columns(for: items.prefix(1_000), requested: nil)
        guard fresh != columns else { return false }
        layOut(items)
        return true
    }

    /// Widens the columns to fit `items`.
    mutating func widen<S: Sequence>(with items: S) where S.Element == Item {
        let table = self.table
        for item in items {
            for (i, text) in table.cells(item).enumerated() {
                naturalWidths[i] = max(naturalWidths[i], TextWidth.of(text))
            }
        }
    }

    /// `s`: sorts by the column after the one sorted by now (after the last, by the id),
    /// ascending. The columns stay as they are: the new order's first items do not choose
    /// others.
    mutating func cycleSort() {
        let current = sort.first?.field.text ?? "id"
        let next = columns.firstIndex(of: current).map { columns[($0 + 1) % columns.count] } ?? "id"
        holdColumns()
        sort = [SortField(field: FieldPath(next), descending: false)]
    }

    /// `S`: reverses the order of the first sort key (by id: descending).
    mutating func reverseSort() {
        let first = sort.first ?? SortField(field: FieldPath("id"), descending: false)
        holdColumns()
        sort = [SortField(field: first.field, descending: !first.descending)] + sort.dropFirst()
    }

    /// `-priority,title`: the order in the header, `nil` by id.
    var sortDescription: String? { sort.isEmpty ? nil : SortField.text(sort) }

    /// Keeps the columns on show when the results are observed again.
    private mutating func holdColumns() {
        if requested == nil { requested = Array(columns.dropFirst()) }
    }

    /// The picker over every field of the first thousand items, the shown ones chosen.
    func picker(for results: Results<Item>) -> ColumnPicker {
        let fields = Table.columns(for: results.prefix(1_000), requested: nil, limit: Int.max)
        return ColumnPicker(fields: fields, shown: Array(columns.dropFirst()))
    }
}

extension String {
    /// Whether this JSON Pointer names a top-level member (`/title`, not `/owner/name`).
    fileprivate var isTopLevel: Bool { utf8.dropFirst().firstIndex(of: UInt8(ascii: "/")) == nil }
}
