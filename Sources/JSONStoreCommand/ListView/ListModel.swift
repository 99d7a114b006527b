import JSONStore

/// The list view's state, composed of small values that each keep their own: the rows
/// (`RowSet`), the selection, the filter, the columns and order, the highlights, the
/// store's status, the pane, the footer's `Notices`, and the `Overlay` over the rows (help,
/// a question, the column picker, the counts, an item's conflicts, a file). Pure logic, no
/// terminal: a key or a change goes in, an `Action` comes out for the app to do, and
/// `frame` draws it.
///
/// Every change of state is in this file (each value's own in its type); `ListModel+Reading`
/// is what the app and the tests read, `ListKeys` says what a key asks for,
/// `ListModel+Editing` what `n` creates, and `ListModel+Render` and the others draw.
package struct ListModel {
    let storePath: String
    /// The command's `--where` conditions: the results are the store's items that meet them.
    let scope: [Condition]
    private(set) var rows = RowSet()
    private(set) var selection = Selection()
    private(set) var filter = RowFilter()
    private(set) var layout: ColumnLayout
    private(set) var highlights = Highlights()
    private(set) var status = ViewStatus()
    private(set) var pane = DetailPane()
    /// What is over the rows and takes the keys, if anything: one at a time.
    private(set) var overlay = Overlay.none
    /// The footer's notices until the next key: a field no item has, an edit that failed.
    private(set) var notices = Notices()
    /// The file the app is to read (again) for the file shown: set by Enter and by changes
    /// that touch it, cleared by `showFile`.
    private(set) var fileToRead: String?
    /// Why the last undo was refused, shown in the header until the next key.
    private(set) var undoRefusal: String?
    /// The item `n` created, to select when it arrives (unless the selection moves first).
    private(set) var created: String?
    /// The first screen's items, read before the whole store is loaded (in id order),
    /// shown until the store's first results replace them in place.
    private(set) var preview: [Item]?

    init(
        storePath: String, requestedColumns: [String]?, sort: [SortField] = [],
        scope: [Condition] = []
    ) {
        self.storePath = storePath
        self.scope = scope
        layout = ColumnLayout(requested: requestedColumns, sort: sort)
    }

    /// A model of the store at `storePath` in id order, with the most common columns.
    package init(storePath: String) {
        self.init(storePath: storePath, requestedColumns: nil)
    }

    // MARK: The store

    package mutating func apply(_ change: StoreChange<Item>, now: Double, clock: String) {
        switch change {
        case .initial(let results):
            preview = nil
            rows.replace(with: results)
            status.didLoad()
            layout.layOut(results)
            filter.columnsChanged()
            filter.refilter(rows, table: table)
            if !filter.isEmpty { fitColumnsToFilter() }
        case .update(let results, let changes):
            let previousCount = rows.results.count
            rows.replace(with: results)
            status.changed(at: clock)
            highlights.mark(changes, now: now)
            pane.note(changes)
            layout.widen(with: changes.inserted + changes.modified.map(\.new))
            if case .file(let file) = overlay, Self.touches(changes, file.name) {
                fileToRead = file.name
            }
            if let id = overlay.followConflicts(in: rows) {
                notices.tell("\(Display.escaped(id)): no conflicts left")
            }
            filter.rowsChanged(changes, table: table)
            filter.refilter(rows, through: changes, previousCount: previousCount, table: table)
            if layout.follows(changes) { fitColumnsToFilter() }
        case .error:
            status.sortEnded()  // the state says failed; the last list stays on screen
            return
        }
        selection.follow(in: visible)
        if let id = created, rows.row(ofID: id) != nil {
            _ = selection.select(id: id, in: visible)
            created = nil
        }
    }

    package mutating func setState(_ state: StoreState, now: Double) {
        status.set(state, now: now)
        if case .failed = state { status.sortEnded() }  // no new order is coming
    }

    /// The item `n` asked for was not made (the write failed, or the template came back
    /// as it was): nothing is to take the selection.
    mutating func notCreated() { created = nil }

    /// The rows are being observed in a new order (`s`, `S`): shown until its first results.
    mutating func sortStarted(now: Double) { status.sortStarted(now: now) }

    /// Takes the first screen's items, read while the store loads; once it is loaded they
    /// are not needed.
    mutating func showPreview(_ items: [Item]) {
        guard !status.loaded, !items.isEmpty else { return }
        preview = items
        layout.layOut(items)
    }

    /// Opens the counts of `field`, as `f` does (`list --follow --count-by FIELD`).
    mutating func openCounts(_ field: String) { overlay = .counts(CountsView(field: field)) }

    /// Takes the live counts `f` asked for.
    mutating func showCounts(_ counts: [CountBy.Count]) { overlay.showCounts(counts) }

    /// Says `notice` in the footer until the next key, above those said before it.
    mutating func tell(_ notice: String) { notices.tell(notice) }

    /// Drops highlights that have run out; returns when the next one does, if any.
    mutating func expireHighlights(now: Double) -> Double? { highlights.expire(now: now) }

    /// The item whose history the pane is to show, when it must be read (again), with the
    /// count of change sets the read begins at.
    var historyToLoad: (id: String, asOf: Int)? {
        guard pane.showsHistory, let id = selectedID, pane.history.needs(id) else { return nil }
        return (id, pane.history.changes)
    }

    /// Takes the history read of `id`, begun at `asOf` (`historyToLoad`): read again if
    /// a change came meanwhile.
    mutating func showHistory(
        _ id: String, _ outcome: Result<[HistoryEntry], StoreError>, asOf: Int
    ) {
        pane.showHistory(id, outcome, asOf: asOf)
    }

    /// Says in the header, until the next key, that an undo was refused and why.
    mutating func undoRefused(_ reason: String) {
        undoRefusal = Display.escaped(reason)
        notices.tell(Display.escaped(reason))
    }

    /// Takes what reading `name` gave, if it is still the file shown.
    mutating func showFile(_ name: String, _ outcome: Result<[UInt8]?, StoreError>) {
        if overlay.showFile(name, outcome), fileToRead == name { fileToRead = nil }
    }

    /// What to build a search index of off the main queue, if it is worth it now.
    package mutating func searchIndexToBuild() -> (results: Results<Item>, table: Table)? {
        guard status.loaded, let results = filter.searchIndexToBuild(rows.results, table: table)
        else { return nil }
        return (results, table)
    }

    /// Takes a search index built off the main queue for results `version`.
    package mutating func install(_ index: SearchIndex, for version: Int) {
        filter.install(index, for: version, table: table)
    }

    // MARK: Keys

    /// Handles a key; `page` is the number of rows on screen. The overlay takes it if
    /// there is one, else the filter while it is typed, else the list.
    package mutating func handle(_ key: Key, page: Int) -> Action {
        if key == .interrupt { return .quit }
        notices.dismiss()
        undoRefusal = nil
        switch overlay {
        case .none:
            if filter.isEditing {
                if filter.edit(key) {
                    filter.refilter(rows, table: table)
                    if !filter.isEditing { fitColumnsToFilter() }  // kept, or cleared
                    selection.follow(in: visible)
                }
                return .none
            }
            guard let intent = ListKeys.intent(for: key) else { return .none }
            return perform(intent, page: page)
        case .help(let scroll):
            overlay =
                Self.helpScroll(after: key, from: scroll, page: page).map(Overlay.help) ?? .none
            return .none
        case .prompt(var prompt):
            let answer = prompt.answer(key)
            overlay = prompt.question == nil ? .none : .prompt(prompt)
            return respond(to: answer)
        case .picker(var picker):
            switch picker.handle(key) {
            case .stay: overlay = .picker(picker)
            case .apply(let chosen):
                overlay = .none
                layout.request(chosen, for: rows.results)
                filter.columnsChanged()
                filter.refilter(rows, table: table)
                selection.follow(in: visible)
            case .cancel: overlay = .none
            }
            return .none
        case .counts(var view):
            switch view.handle(key, page: page) {
            case .stay:
                overlay = .counts(view)
                return .none
            case .close(let text):
                overlay = .none
                if let text {
                    filter.set(text)
                    filter.refilter(rows, table: table)
                    fitColumnsToFilter()
                    selection.follow(in: visible)
                }
                return .stopCounts
            }
        case .conflicts(var view):
            let outcome = view.handle(key, page: page)
            // Any outcome but `stay` goes back to the list, where the notice shows.
            overlay = outcome == .stay ? .conflicts(view) : .none
            switch outcome {
            case .stay, .close: return .none
            case .keepItem: return .resolve(id: view.id, keeping: .item)
            case .keep(let version): return .resolve(id: view.id, keeping: .merged(version.bytes))
            case .merge(let version): return .mergeConflict(id: view.id, with: version)
            }
        case .file(var file):
            if file.handle(key, page: page) {
                overlay = .none
                fileToRead = nil
            } else {
                overlay = .file(file)
            }
            return .none
        }
    }

    /// What the footer's question, answered, asks for.
    private mutating func respond(to answer: FooterPrompt.Answer) -> Action {
        switch answer {
        case .none: return .none
        case .delete(let id): return .delete(id: id)
        case .deleteMarked(let ids):
            selection.clearMarks()
            return .deleteMany(ids: ids)
        case .undo(let id): return .undo(id: id)
        case .count(let typed):
            let field = typed.isEmpty ? layout.sort.first?.field.text ?? "" : typed
            guard !field.isEmpty, field != "id" else {
                notices.tell("type a field to count by: the list is sorted by id")
                return .none
            }
            overlay = .counts(CountsView(field: field))
            return .observeCounts(field: field)
        case .create(let id):
            switch Self.newItem(id, in: rows.results, from: selectedItem) {
            case .success(let action):
                created = id
                return action
            case .failure(let refusal): notices.tell(refusal.message)
            }
            return .none
        }
    }

    private mutating func perform(_ intent: ListKeys.Intent, page: Int) -> Action {
        switch intent {
        case .quit: return .quit
        case .up, .down, .pageUp, .pageDown, .first, .last:
            created = nil  // moved away: the new item does not take the selection back
            selection.move(intent, page: page, in: visible)
        case .filter: filter.begin()
        case .clearFilter:
            guard selection.marks.isEmpty else {
                selection.clearMarks()
                return .none
            }
            filter.clear()
            filter.refilter(rows, table: table)
            fitColumnsToFilter()
            selection.follow(in: visible)
        case .sortNext:
            layout.cycleSort()
            return .sort
        case .sortReverse:
            layout.reverseSort()
            return .sort
        case .pickColumns: overlay = .picker(layout.picker(for: rows.results))
        case .open:
            if let id = selectedID, rows.hasConflicts(id) {
                overlay = .conflicts(
                    ConflictView(
                        id: id, item: rows.item(ofID: id), conflicts: results.conflicts(of: id)))
                return .none
            }
            if let (name, id) = selectedFile {
                overlay = .file(FileView(name: name, id: id))
                fileToRead = name
            }
        case .edit:
            if !selection.marks.isEmpty {
                defer { selection.clearMarks() }
                return .editMany(ids: selection.marked)
            }
            return selectedFile.map { .edit(file: $0.name) } ?? .none
        case .create: overlay = .prompt(FooterPrompt(asking: .newID("")))
        case .delete:
            if !selection.marks.isEmpty {
                overlay = .prompt(FooterPrompt(asking: .deleteMarked(selection.marked)))
            } else if let id = selectedID {
                overlay = .prompt(FooterPrompt(asking: .delete(id)))
            }
        case .mark: selection.toggleMark(in: visible)
        case .copy:
            let ids = selection.marks.isEmpty ? selectedID.map { [$0] } ?? [] : selection.marked
            selection.clearMarks()
            return ids.isEmpty ? .none : .copy(ids.joined(separator: "\n"))
        case .help: overlay = .help(scroll: 0)
        case .pane: pane.toggle()
        case .history: pane.toggle(.history)
        case .undo:
            if let id = selectedID { overlay = .prompt(FooterPrompt(asking: .undo(id))) }
        case .counts: overlay = .prompt(FooterPrompt(asking: .countField("")))
        }
        return .none
    }

    /// With no columns asked for, the columns follow the rows the filter keeps (all items
    /// with none), and the filter searches their text.
    private mutating func fitColumnsToFilter() {
        let sample = columnSample
        guard layout.fit(sample) else { return }
        filter.columnsChanged()
        filter.refilter(rows, table: table)
    }

    // MARK: Drawing

    /// Draws the view, scrolled to keep the selection on screen.
    package mutating func frame(width: Int, height: Int, now: Double) -> Frame {
        selection.scroll(page: listArea(width: width, height: height).page, count: visibleCount)
        return draw(width: width, height: height, now: now)
    }
}
