import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// The small values the list view's model is made of, each alone.
@Suite("The list view's parts")
struct ListViewPartsTests {
    /// `results` with the entry `id` set to `entry` (nil removes it), and the change.
    func setting(
        _ id: String, _ entry: Entry?, in results: Results<Item>, _ snapshot: inout StoreSnapshot
    ) -> (Results<Item>, ChangeSet<Item>) {
        let old = snapshot.entries[UTF8Key(id)]
        snapshot.setEntry(entry, for: UTF8Key(id))
        let name = UTF8Key(ItemID.fileName(id))
        snapshot.invalid[name] = entry?.error.map { InvalidFile(itemID: id, error: $0) }
        snapshot.version += 1
        return results.applying(
            [EntryChange(id: id, old: old, new: entry)],
            names: [UTF8Key(ItemID.fileName(id))], snapshot: snapshot)
    }

    func item(_ id: String, _ title: String) -> Entry {
        let object: JSONObject = ["id": .string(id), "title": .string(title)]
        return Entry(
            item: Item(id: id, object: object, fingerprint: Fingerprint(Array(title.utf8))),
            error: nil)
    }

    @Test("rows: the items, then the invalid files with no item; ids for both")
    func rowSet() {
        var (results, snapshot) = makeResults(3)
        let broken = Entry(item: nil, error: StoreError(code: .invalidJSON, message: "bad"))
        (results, _) = setting("aaa", broken, in: results, &snapshot)
        var rows = RowSet()
        rows.replace(with: results)
        #expect(rows.count == 4 && rows.invalidCount == 1)
        #expect(rows.item(at: 3) == nil && rows.invalidFile(at: 3)?.name == "aaa.json")
        #expect(rows.id(at: 3) == "aaa" && rows.row(ofID: "aaa") == 3)
        #expect(rows.file(at: 0).name == "item-000000.json")
        let visible = VisibleRows(rows: rows, matches: [1, 3])
        #expect(visible.count == 2 && visible.row(at: 1) == 3)
        #expect(visible.index(ofRow: 3) == 1 && visible.index(ofRow: 0) == nil)
    }

    @Test("the selection keeps its item as rows come and go, and when its file turns valid")
    func selection() {
        var (results, snapshot) = makeResults(5)
        var rows = RowSet()
        rows.replace(with: results)
        var selection = Selection()
        selection.select(2, in: VisibleRows(rows: rows, matches: nil))
        #expect(selection.id == "item-000002")
        selection.move(by: 10, in: VisibleRows(rows: rows, matches: nil))
        #expect(selection.index == 4)  // clamped
        selection.select(2, in: VisibleRows(rows: rows, matches: nil))
        // A row inserted above: the selection moves down with its item.
        (results, _) = setting("aaa", item("aaa", "new"), in: results, &snapshot)
        rows.replace(with: results)
        selection.follow(in: VisibleRows(rows: rows, matches: nil))
        #expect(selection.index == 3 && selection.id == "item-000002")
        // A file invalid since it appeared is the last row; once valid, the selection
        // goes with it to its item's row.
        let broken = Entry(item: nil, error: StoreError(code: .invalidJSON, message: "bad"))
        (results, _) = setting("abc", broken, in: results, &snapshot)
        rows.replace(with: results)
        selection.select(rows.count - 1, in: VisibleRows(rows: rows, matches: nil))
        #expect(selection.id == "abc")
        (results, _) = setting("abc", item("abc", "fixed"), in: results, &snapshot)
        rows.replace(with: results)
        selection.follow(in: VisibleRows(rows: rows, matches: nil))
        #expect(selection.index == 1 && rows.item(at: selection.index)?.id == "abc")
        // Scrolling keeps the selection on a page of 2.
        selection.select(5, in: VisibleRows(rows: rows, matches: nil))
        selection.scroll(page: 2, count: rows.count)
        #expect(selection.top == 4)
    }

    @Test("the filter: keys edit it, and its matches carried through a change equal a fresh scan")
    func filter() {
        var (results, snapshot) = makeResults(30)
        var rows = RowSet()
        rows.replace(with: results)
        let table = Table(columns: ["id", "title"])
        var filter = RowFilter()
        filter.begin()
        for key in "task 1".map(Key.character) {
            let edited = filter.edit(key)
            #expect(edited)
        }
        let arrow = filter.edit(.up)
        #expect(!arrow && filter.isEditing)
        filter.refilter(rows, table: table)
        #expect(filter.matches?.count == 11)  // 1, 10-19
        let previous = rows.results.count
        let changes: ChangeSet<Item>
        (results, changes) = setting(
            "item-000002", item("item-000002", "Task 1b"), in: results, &snapshot)
        rows.replace(with: results)
        filter.rowsChanged(changes, table: table)
        filter.refilter(rows, through: changes, previousCount: previous, table: table)
        var fresh = RowFilter()
        fresh.begin()
        for key in "task 1".map(Key.character) { _ = fresh.edit(key) }
        fresh.refilter(rows, table: table)
        #expect(filter.matches == fresh.matches && filter.matches?.count == 12)
        let escaped = filter.edit(.escape)
        #expect(escaped && filter.isEmpty && !filter.isEditing)
    }

    @Test("columns: s cycles and S reverses the sort, holding the columns on show")
    func columns() {
        let (results, _) = makeResults(3)
        var layout = ColumnLayout(requested: nil, sort: [])
        layout.layOut(results)
        #expect(layout.columns == ["id", "title", "n"])
        layout.cycleSort()
        #expect(layout.sortDescription == "title" && layout.requested == ["title", "n"])
        layout.reverseSort()
        #expect(layout.sortDescription == "-title")
        layout.request(["n"], for: results)
        #expect(layout.columns == ["id", "n"])
        #expect(layout.picker(for: results).lines.map(\.text) == ["[1] n", "[ ] title"])
    }

    @Test("the footer: a notice until a key, a new id typed, y/N before deleting")
    func footer() {
        let (results, _) = makeResults(1)
        var model = liveModel(results)
        model.tell("careful")
        _ = model.handle(.down, page: 9)
        #expect(model.notice == nil)
        var footer = FooterPrompt(asking: .newID(""))
        for key in [Key.character("a"), .character("b"), .backspace, .character("c")] {
            let answer = footer.answer(key)
            #expect(answer == .none)
        }
        #expect(footer.questionText?.contains("ac") == true)
        let created = footer.answer(.enter)
        #expect(created == .create(id: "ac") && footer.question == nil)
        footer = FooterPrompt(asking: .delete("tea"))
        let declined = footer.answer(.character("n"))
        #expect(declined == .none && footer.question == nil)
        footer = FooterPrompt(asking: .delete("tea"))
        let deleted = footer.answer(.character("y"))
        #expect(deleted == .delete(id: "tea"))
    }

    @Test("highlights run out after a second; the overlay waits before it shows")
    func highlightsAndStatus() {
        var (results, snapshot) = makeResults(2)
        let changes: ChangeSet<Item>
        (results, changes) = setting("new", item("new", "N"), in: results, &snapshot)
        var highlights = Highlights()
        highlights.mark(changes, now: 10)
        #expect(highlights.kind(of: "new", now: 10.5) == .inserted)
        let next = highlights.expire(now: 10.5)
        #expect(next == 11)
        let none = highlights.expire(now: 11)
        #expect(none == nil && highlights.kind(of: "new", now: 11) == nil)
        var status = ViewStatus()
        status.set(.loading(done: 0, total: 9), now: 1)
        #expect(!status.showsOverlay(now: 1.1) && status.showsOverlay(now: 1.2))
        status.set(.live, now: 2)
        #expect(!status.showsOverlay(now: 9) && !status.isLoading)
    }

    @Test("the keys' table binds each key once, and every intent to a key")
    func keys() {
        let keys = ListKeys.bindings.flatMap(\.keys)
        #expect(keys.count == Set(keys.map { "\($0)" }).count)
        let intents: [ListKeys.Intent] = [
            .quit, .up, .down, .pageUp, .pageDown, .first, .last, .filter, .clearFilter,
            .sortNext, .sortReverse, .pickColumns, .open, .edit, .create, .delete,
        ]
        for intent in intents {
            #expect(ListKeys.bindings.contains { $0.intent == intent }, "\(intent)")
        }
        #expect(ListKeys.intent(for: .character("j")) == .down)
        #expect(ListKeys.intent(for: .character("z")) == nil)
    }

    @Test("the pane: an item's JSON a member at a time, and the members its last update changed")
    func pane() {
        var (results, snapshot) = makeResults(2)
        var pane = DetailPane()
        pane.toggle()
        #expect(pane.isShown)
        let object: JSONObject = [
            "id": "item-000000", "title": "T", "owner": ["name": "ann", "team": "x"],
        ]
        let new = Entry(
            item: Item(id: "item-000000", object: object, fingerprint: Fingerprint([1])),
            error: nil)
        let changes: ChangeSet<Item>
        (results, changes) = setting("item-000000", new, in: results, &snapshot)
        pane.note(changes)
        #expect(pane.changedMembers(of: "item-000000") == ["n", "title", "owner"])  // n went
        #expect(pane.changedMembers(of: "item-000001").isEmpty)
        let lines = DetailPane.lines(of: results[0])
        #expect(lines.first?.text == "{" && lines.last?.text == "}")
        #expect(lines.contains { $0.text == #"  "title": "T","# && $0.member == "title" })
        #expect(lines.filter { $0.member == "owner" }.count == 4)  // {, two members, }
    }

    @Test("the counts view: a cursor over live counts, Enter's filter, Esc back")
    func countsView() {
        var view = CountsView(field: "status")
        #expect(!view.loaded)
        view.show([CountBy.Count(value: "done", count: 2), CountBy.Count(value: nil, count: 1)])
        #expect(view.handle(.down, page: 9) == .stay && view.cursor == 1)
        view.show([CountBy.Count(value: "done", count: 3)])  // fewer rows: the cursor follows
        #expect(view.cursor == 0)
        #expect(view.handle(.enter, page: 9) == .close(filter: "status=done"))
        #expect(view.handle(.escape, page: 9) == .close(filter: nil))
    }
}
