import JSONStore

/// The list view's sort and column keys: `s` sorts by the next column, `S` reverses the
/// order, `c` opens the column picker.
extension ListModel {
    /// Sorts by the column after the one sorted by now (after the last, by the id),
    /// ascending. The columns stay as they are: the new order's first items do not choose
    /// others.
    mutating func cycleSort() -> Action {
        let current = sort.first?.field.text ?? "id"
        let next = columns.firstIndex(of: current).map { columns[($0 + 1) % columns.count] } ?? "id"
        holdColumns()
        sort = [SortField(field: FieldPath(next), descending: false)]
        return .sort
    }

    /// Reverses the order of the first sort key (by id: descending).
    mutating func reverseSort() -> Action {
        let first = sort.first ?? SortField(field: FieldPath("id"), descending: false)
        holdColumns()
        sort = [SortField(field: first.field, descending: !first.descending)] + sort.dropFirst()
        return .sort
    }

    /// `-priority,title`: the order in the header, `nil` by id.
    var sortDescription: String? {
        sort.isEmpty ? nil : SortField.text(sort)
    }

    /// Keeps the columns on show when the results are observed again.
    private mutating func holdColumns() {
        if requestedColumns == nil { requestedColumns = Array(columns.dropFirst()) }
    }

    /// Opens the picker over every field of the first thousand items.
    mutating func openPicker() {
        let fields = Table.columns(for: results.prefix(1_000), requested: nil, limit: Int.max)
        picker = ColumnPicker(fields: fields, shown: Array(columns.dropFirst()))
    }

    /// A key while the picker is open: Enter shows the chosen columns, Esc leaves them.
    mutating func handlePicker(_ key: Key) -> Action {
        guard var picker else { return .none }
        switch picker.handle(key) {
        case .stay:
            self.picker = picker
        case .apply(let chosen):
            self.picker = nil
            relayColumns(chosen)
        case .cancel:
            self.picker = nil
        }
        return .none
    }
}
