import JSONStore

/// What is over the list view's rows and takes the keys: nothing (the list, and the `/`
/// filter while it is typed), `?`'s keys, a question in the footer, the column picker,
/// `f`'s counts, an item's conflicts, or a file shown whole. One at a time, each with the
/// state it needs, so the model handles, draws and words the footer in one order.
enum Overlay {
    /// The rows take the keys.
    case none
    /// `?`: the list's keys over the rows, scrolled by this many lines where they do not fit
    /// (↑ ↓ scroll them then; any other key closes them).
    case help(scroll: Int)
    /// A question in the footer (`n`'s id, `d`'s y/N, `f`'s field), over the rows.
    case prompt(FooterPrompt)
    /// `c`: the column picker.
    case picker(ColumnPicker)
    /// `f`: each value of a field with how many items have it, live.
    case counts(CountsView)
    /// Enter on a row with conflicts: the item beside each kept version.
    case conflicts(ConflictView)
    /// Enter: the row's file as it is on disk.
    case file(FileView)

    /// Takes the live counts `f` asked for, if they are shown.
    mutating func showCounts(_ counts: [CountBy.Count]) {
        guard case .counts(var view) = self else { return }
        view.show(counts)
        self = .counts(view)
    }

    /// Takes what reading `name` gave, if it is the file shown; returns whether it is.
    mutating func showFile(_ name: String, _ outcome: Result<[UInt8]?, StoreError>) -> Bool {
        guard case .file(var file) = self, file.name == name else { return false }
        file.show(outcome)
        self = .file(file)
        return true
    }

    /// After a change, the conflicts shown follow `rows`; returns the item's id when none
    /// is left, the view closed.
    mutating func followConflicts(in rows: RowSet) -> String? {
        guard case .conflicts(var view) = self else { return nil }
        let id = view.id
        let left = view.update(item: rows.item(ofID: id), conflicts: rows.results.conflicts(of: id))
        self = left ? .conflicts(view) : .none
        return left ? nil : id
    }
}
