import JSONStore

/// What the app and the tests read of the list view's model: nothing here changes it.
extension ListModel {
    var results: Results<Item> { rows.results }
    var visible: VisibleRows { VisibleRows(rows: rows, matches: filter.matches) }
    package var visibleCount: Int { visible.count }
    var selected: Int { selection.index }
    var selectedID: String? { selection.id }
    var matches: [Int]? { filter.matches }
    var sort: [SortField] { layout.sort }
    var columns: [String] { layout.columns }
    var table: Table { layout.table }
    /// The newest notice in the footer, if any.
    var notice: String? { notices.newest }
    var prompt: FooterPrompt.Question? {
        if case .prompt(let prompt) = overlay { prompt.question } else { nil }
    }
    var showsHelp: Bool {
        if case .help = overlay { true } else { false }
    }
    var picker: ColumnPicker? {
        if case .picker(let picker) = overlay { picker } else { nil }
    }
    var countsView: CountsView? {
        if case .counts(let view) = overlay { view } else { nil }
    }
    var conflictView: ConflictView? {
        if case .conflicts(let view) = overlay { view } else { nil }
    }
    var detail: FileView? {
        if case .file(let file) = overlay { file } else { nil }
    }
    var editingFilter: Bool { filter.isEditing }
    var hasSearchIndex: Bool { filter.searchIndex != nil }

    /// The items the columns are chosen from: the first thousand the filter keeps, or of
    /// all items with no filter.
    var columnSample: [Item] {
        guard let matches = filter.matches else { return Array(results.prefix(1_000)) }
        return matches.prefix { $0 < results.count }.prefix(1_000).map { results[$0] }
    }

    /// The selected row's file name and item id (an invalid file may have none).
    var selectedFile: (name: String, id: String?)? {
        visibleCount > 0 ? rows.file(at: visible.row(at: selection.index)) : nil
    }

    /// The selected item, if the row is one.
    var selectedItem: Item? {
        visibleCount > 0 ? rows.item(at: visible.row(at: selection.index)) : nil
    }

    /// Whether `changes` touch the file `name`.
    static func touches(_ changes: ChangeSet<Item>, _ name: String) -> Bool {
        changes.invalid.contains { $0.name == name } || changes.resolved.contains(name)
            || changes.modified.contains { $0.new.fileName == name }
            || changes.inserted.contains { $0.fileName == name }
            || changes.deleted.contains { $0.fileName == name }
    }
}
