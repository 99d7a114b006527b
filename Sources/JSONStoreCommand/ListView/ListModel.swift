import JSONStore

/// The list view's state, composed of small values that each keep their own: the rows
/// (`RowSet`), the selection, the filter, the columns and order, the footer's prompt, the
/// highlights, the store's status, and the file shown. Pure logic, no terminal: a key or
/// a change goes in, an `Action` comes out for the app to do, and `frame` draws it.
///
/// Every change of state is in this file; `ListModel+Reading` is what the app and the
/// tests read, `ListKeys` says what a key asks for, `ListModel+Editing` what `n` creates,
/// and `ListModel+Render` and `ListModel+Pane` draw.
package struct ListModel {
    let storePath: String
    private(set) var rows = RowSet()
    private(set) var selection = Selection()
    private(set) var filter = RowFilter()
    private(set) var layout: ColumnLayout
    private(set) var footer = FooterPrompt()
    private(set) var highlights = Highlights()
    private(set) var status = ViewStatus()
    private(set) var pane = DetailPane()
    /// The column picker, while it is open.
    private(set) var picker: ColumnPicker?
    /// The file shown whole (Enter), as it is on disk.
    private(set) var detail: FileView?
    /// An item's conflicts (Enter on a row that has some).
    private(set) var conflictView: ConflictView?
    /// The file the app is to read (again) for `detail`: set by Enter and by changes that
    /// touch it, cleared by `showFile`.
    private(set) var fileToRead: String?
    /// The first screen's items, read before the whole store is loaded (in id order),
    /// shown until the store's first results replace them in place.
    private(set) var preview: [Item]?
    /// `f`'s counts, while they are shown.
    private(set) var countsView: CountsView?
    /// Whether `?`'s list of keys is over the list (any key closes it).
    private(set) var showsHelp = false

    init(storePath: String, requestedColumns: [String]?, sort: [SortField] = []) {
        self.storePath = storePath
        layout = ColumnLayout(requested: requestedColumns, sort: sort)
    }

    /// A model of the store at `storePath` in id order, with the most common columns.
    package init(storePath: String) {
        self.init(storePath: storePath, requestedColumns: nil)
    }

    /// The number of rows on a screen of `height` lines (header, titles and footer take 3).
    package static func page(height: Int) -> Int { max(1, height - 3) }

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
        case .update(let results, let changes):
            let previousCount = rows.results.count
            rows.replace(with: results)
            status.changed(at: clock)
            highlights.mark(changes, now: now)
            pane.note(changes)
            layout.widen(with: changes.inserted + changes.modified.map(\.new))
            if let shown = detail?.name, Self.touches(changes, shown) { fileToRead = shown }
            if let id = conflictView?.id,
                conflictView?.update(
                    item: rows.item(ofID: id), conflicts: results.conflicts(of: id))
                    == false
            {
                conflictView = nil
                footer.tell("\(Display.escaped(id)): no conflicts left")
            }
            if layout.follow(changes, in: results) {
                filter.columnsChanged()
                filter.refilter(rows, table: table)
            } else {
                filter.rowsChanged(changes, table: table)
                filter.refilter(rows, through: changes, previousCount: previousCount, table: table)
            }
        case .error:
            return  // the state says failed; the last list stays on screen
        }
        selection.follow(in: visible)
    }

    package mutating func setState(_ state: StoreState, now: Double) { status.set(state, now: now) }

    /// Takes the first screen's items, read while the store loads; once it is loaded they
    /// are not needed.
    mutating func showPreview(_ items: [Item]) {
        guard !status.loaded, !items.isEmpty else { return }
        preview = items
        layout.layOut(items)
    }

    /// Takes the live counts `f` asked for.
    mutating func showCounts(_ counts: [CountBy.Count]) { countsView?.show(counts) }

    /// Says `notice` in the footer until the next key.
    mutating func tell(_ notice: String) { footer.tell(notice) }

    /// Drops highlights that have run out; returns when the next one does, if any.
    mutating func expireHighlights(now: Double) -> Double? { highlights.expire(now: now) }

    /// Takes what reading `name` gave, if it is still the file shown.
    mutating func showFile(_ name: String, _ outcome: Result<[UInt8]?, StoreError>) {
        guard detail?.name == name else { return }
        detail?.show(outcome)
        if fileToRead == name { fileToRead = nil }
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

    /// Handles a key; `page` is the number of rows on screen.
    package mutating func handle(_ key: Key, page: Int) -> Action {
        if key == .interrupt { return .quit }
        footer.dismissNotice()
        if showsHelp {
            showsHelp = false
            return .none
        }
        if var open = picker {
            switch open.handle(key) {
            case .stay: picker = open
            case .apply(let chosen):
                picker = nil
                layout.request(chosen, for: rows.results)
                filter.columnsChanged()
                filter.refilter(rows, table: table)
                selection.follow(in: visible)
            case .cancel: picker = nil
            }
            return .none
        }
        if footer.question != nil {
            switch footer.answer(key) {
            case .none: return .none
            case .delete(let id): return .delete(id: id)
            case .deleteMarked(let ids):
                selection.clearMarks()
                return .deleteMany(ids: ids)
            case .count(let typed):
                let field = typed.isEmpty ? layout.sort.first?.field.text ?? "" : typed
                guard !field.isEmpty, field != "id" else {
                    footer.tell("type a field to count by: the list is sorted by id")
                    return .none
                }
                countsView = CountsView(field: field)
                return .observeCounts(field: field)
            case .create(let id):
                switch Self.newItem(id, in: rows.results, from: selectedItem) {
                case .success(let action): return action
                case .failure(let refusal): footer.tell(refusal.message)
                }
                return .none
            }
        }
        if var counts = countsView {
            switch counts.handle(key, page: page) {
            case .stay: countsView = counts
            case .close(let text):
                countsView = nil
                if let text {
                    filter.set(text)
                    filter.refilter(rows, table: table)
                    selection.follow(in: visible)
                }
                return .stopCounts
            }
            return .none
        }
        if let id = conflictView?.id {
            let outcome = conflictView!.handle(key, page: page)
            if outcome != .stay { conflictView = nil }  // back to the list, for the notice
            switch outcome {
            case .stay, .close: return .none
            case .keepMine: return .resolve(id: id, keeping: .item)
            case .keep(let version): return .resolve(id: id, keeping: .merged(version.bytes))
            case .merge(let version): return .mergeConflict(id: id, with: version)
            }
        }
        if detail != nil {
            if detail!.handle(key, page: page) {
                detail = nil
                fileToRead = nil
            }
            return .none
        }
        if filter.isEditing {
            if filter.edit(key) {
                filter.refilter(rows, table: table)
                selection.follow(in: visible)
            }
            return .none
        }
        guard let intent = ListKeys.intent(for: key) else { return .none }
        return perform(intent, page: page)
    }

    private mutating func perform(_ intent: ListKeys.Intent, page: Int) -> Action {
        switch intent {
        case .quit: return .quit
        case .up: selection.move(by: -1, in: visible)
        case .down: selection.move(by: 1, in: visible)
        case .pageUp: selection.move(by: -max(1, page), in: visible)
        case .pageDown: selection.move(by: max(1, page), in: visible)
        case .first: selection.select(0, in: visible)
        case .last: selection.select(visibleCount - 1, in: visible)
        case .filter: filter.begin()
        case .clearFilter:
            guard selection.marks.isEmpty else {
                selection.clearMarks()
                return .none
            }
            filter.clear()
            filter.refilter(rows, table: table)
            selection.follow(in: visible)
        case .sortNext:
            layout.cycleSort()
            return .sort
        case .sortReverse:
            layout.reverseSort()
            return .sort
        case .pickColumns: picker = layout.picker(for: rows.results)
        case .open:
            if let id = selectedID, rows.hasConflicts(id) {
                let view = ConflictView(
                    id: id, item: rows.item(ofID: id), conflicts: results.conflicts(of: id))
                conflictView = view
                return .none
            }
            if let (name, id) = selectedFile {
                detail = FileView(name: name, id: id)
                fileToRead = name
            }
        case .edit:
            if !selection.marks.isEmpty {
                defer { selection.clearMarks() }
                return .editMany(ids: selection.marked)
            }
            return selectedFile.map { .edit(file: $0.name) } ?? .none
        case .create: footer.ask(.newID(""))
        case .delete:
            if !selection.marks.isEmpty {
                footer.ask(.deleteMarked(selection.marked))
            } else if let id = selectedID {
                footer.ask(.delete(id))
            }
        case .mark: selection.toggleMark(in: visible)
        case .copy:
            let ids = selection.marks.isEmpty ? selectedID.map { [$0] } ?? [] : selection.marked
            selection.clearMarks()
            return ids.isEmpty ? .none : .copy(ids.joined(separator: "\n"))
        case .help: showsHelp = true
        case .pane: pane.toggle()
        case .counts: footer.ask(.countField(""))
        }
        return .none
    }

    // MARK: Drawing

    /// Draws the view, scrolled to keep the selection on screen.
    package mutating func frame(width: Int, height: Int, now: Double) -> Frame {
        selection.scroll(page: listArea(width: width, height: height).page, count: visibleCount)
        return draw(width: width, height: height, now: now)
    }
}
