import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// Results of `count` items, as the store would deliver them.
func makeResults(_ count: Int, title: (Int) -> String = { "Task \($0)" }) -> (
    Results<Item>, StoreSnapshot
) {
    var snapshot = StoreSnapshot()
    var elements: [(UTF8Key, Entry)] = []
    for i in 0..<count {
        let id = String(format: "item-%06d", i)
        let object: JSONObject = [
            "id": .string(id), "title": .string(title(i)), "n": .number(JSONNumber(i)),
        ]
        elements.append(
            (
                UTF8Key(id),
                Entry(
                    item: Item(id: id, object: object, fingerprint: Fingerprint(Array(id.utf8))),
                    error: nil)
            ))
    }
    snapshot = StoreSnapshot(
        version: 1, entries: SortedTree(sortedDistinct: elements), invalid: [:])
    return (Results<Item>.initial(.all, snapshot, coder: .items), snapshot)
}

/// The update that sets `id`'s title, as the store would deliver it.
func modify(_ results: Results<Item>, _ snapshot: inout StoreSnapshot, id: String, title: String)
    -> StoreChange<Item>
{
    let old = snapshot.entries[UTF8Key(id)]!
    var object = old.item(id: id)!.object
    object["title"] = .string(title)
    let new = Entry(
        item: Item(id: id, object: object, fingerprint: Fingerprint(Array(title.utf8))), error: nil)
    snapshot.setEntry(new, for: UTF8Key(id))
    snapshot.version += 1
    let (next, changes) = results.applying(
        [EntryChange(id: id, old: old, new: new)], names: [], snapshot: snapshot)
    return .update(next, changes)
}

/// The update that inserts `id`.
func insert(_ results: Results<Item>, _ snapshot: inout StoreSnapshot, id: String) -> StoreChange<
    Item
> {
    let object: JSONObject = ["id": .string(id), "title": "new", "n": 0]
    let new = Entry(
        item: Item(id: id, object: object, fingerprint: Fingerprint(Array(id.utf8))), error: nil)
    snapshot.setEntry(new, for: UTF8Key(id))
    snapshot.version += 1
    let (next, changes) = results.applying(
        [EntryChange(id: id, old: nil, new: new)], names: [], snapshot: snapshot)
    return .update(next, changes)
}

/// A live list view model showing `results`.
func liveModel(_ results: Results<Item>, columns: [String]? = nil, path: String = "s") -> ListModel
{
    var model = ListModel(storePath: path, requestedColumns: columns)
    model.setState(.live, now: 0)
    model.apply(.initial(results), now: 0, clock: "12:00:00")
    return model
}

@Suite("The list view against an in-memory terminal")
struct ListViewTests {
    @Test("the first frame draws everything; a single-row change rewrites only that row")
    func singleRowChange() {
        var (results, snapshot) = makeResults(100)
        var model = liveModel(results, path: "store")
        var screen = Screen(color: true)
        var terminal = VirtualTerminal(width: 100, height: 30)
        var frame = model.frame(width: 100, height: 30, now: 1)
        terminal.feed(screen.update(to: frame))
        #expect(terminal.text == frame.text)
        #expect(terminal.text[2].contains("item-000000"))

        let change = modify(results, &snapshot, id: "item-000005", title: "Changed")
        if case .update(let next, _) = change { results = next }
        model.apply(change, now: 10, clock: "12:00:10")
        frame = model.frame(width: 100, height: 30, now: 10)
        let output = screen.update(to: frame)
        terminal.feed(output)
        #expect(terminal.text == frame.text)
        #expect(terminal.text[7].contains("Changed"))
        // The changed row and the header (its "last change" time), nothing else.
        #expect(terminal.rowsWritten == 2)
        #expect(output.utf8.count < 500, "\(output.utf8.count) bytes for one row")
        // Nothing changed: nothing written.
        #expect(screen.update(to: model.frame(width: 100, height: 30, now: 10)).isEmpty)
    }

    @Test("the highlight of a changed row goes after about a second")
    func highlightExpires() {
        var (results, snapshot) = makeResults(10)
        var model = liveModel(results, path: "store")
        let change = modify(results, &snapshot, id: "item-000002", title: "X")
        if case .update(let next, _) = change { results = next }
        model.apply(change, now: 5, clock: "")
        var frame = model.frame(width: 80, height: 20, now: 5.1)
        let highlighted = frame.serialize(row: 4, color: true)
        #expect(highlighted.contains("\u{1B}[0;1;30;43m"))  // bold black on yellow
        #expect(model.expireHighlights(now: 6.5) == nil)
        frame = model.frame(width: 80, height: 20, now: 6.5)
        #expect(!frame.serialize(row: 4, color: true).contains("43m"))
        // Without colour, no colour codes at all.
        #expect(!highlighted.isEmpty && !frame.serialize(row: 4, color: false).contains("43m"))
    }

    @Test("a resize re-lays out the whole screen at the new width")
    func resize() {
        let (results, _) = makeResults(50) {
            "A rather long title for item number \($0), to be cut"
        }
        var model = liveModel(results, path: "store")
        var screen = Screen(color: false)
        var terminal = VirtualTerminal(width: 120, height: 20)
        terminal.feed(screen.update(to: model.frame(width: 120, height: 20, now: 1)))
        terminal.resize(width: 50, height: 12)
        let frame = model.frame(width: 50, height: 12, now: 1)
        let output = screen.update(to: frame)
        #expect(output.contains("\u{1B}[2J"))
        terminal.feed(output)
        #expect(terminal.text == frame.text)
        #expect(terminal.text[2].contains("…"))
        #expect(terminal.text.allSatisfy { TextWidth.of($0) == 50 })
    }

    @Test("the loading overlay appears only after 150 ms, with a spinner and progress")
    func overlay() {
        var model = ListModel(storePath: "big", requestedColumns: nil)
        model.setState(.loading(done: 0, total: 0), now: 10)
        model.setState(.loading(done: 12_400, total: 100_000), now: 10.05)
        var text = model.frame(width: 80, height: 24, now: 10.1).text.joined(separator: "\n")
        #expect(!text.contains("Loading"))
        text = model.frame(width: 80, height: 24, now: 10.2).text.joined(separator: "\n")
        #expect(text.contains("Loading big"))
        #expect(text.contains("12,400 / 100,000"))
        #expect(text.contains("█") && text.contains("░"))
        // The spinner turns about ten times a second.
        let a = model.frame(width: 80, height: 24, now: 10.2).text.joined()
        let b = model.frame(width: 80, height: 24, now: 10.3).text.joined()
        #expect(a != b)
        // Live: the overlay goes.
        let (results, _) = makeResults(3)
        model.apply(.initial(results), now: 11, clock: "")
        model.setState(.live, now: 11)
        text = model.frame(width: 80, height: 24, now: 11.5).text.joined(separator: "\n")
        #expect(!text.contains("Loading"))
        #expect(text.contains("item-000002"))
        // A resync keeps the list behind the box.
        model.setState(.resyncing(reason: "inotify queue overflow"), now: 12)
        text = model.frame(width: 80, height: 24, now: 12.5).text.joined(separator: "\n")
        #expect(text.contains("Resyncing: inotify queue overflow"))
        #expect(text.contains("item-000000"))
    }

    @Test("hostile titles reach the screen escaped: OSC, CSI, CR, BEL, bidi override, C1")
    func hostileText() {
        let hostile = "a\u{1B}]0;pwned\u{7}b\u{1B}[2Jc\rd\u{202E}e\u{9B}31mf"
        let (results, _) = makeResults(1) { _ in hostile }
        var model = liveModel(results, columns: ["title"], path: "s\u{1B}[31m")
        var screen = Screen(color: true)
        let output = screen.update(to: model.frame(width: 120, height: 10, now: 1))
        var terminal = VirtualTerminal(width: 120, height: 10)
        terminal.feed(output)  // traps on any raw control character
        let row = terminal.text[2]
        #expect(row.contains("a^[]0;pwned^Gb^[[2Jc\\rd\\u{202E}e\\u{9B}3"))  // cut at 40 columns
        #expect(terminal.text[0].contains("s^[[31m"))
        #expect(!output.unicodeScalars.contains { [0x07, 0x0D, 0x9B, 0x202E].contains($0.value) })
        #expect(!output.contains("\u{1B}]"))
    }

    @Test("the selection stays on its item when rows are inserted above it")
    func selectionFollowsItem() {
        var (results, snapshot) = makeResults(20)
        var model = liveModel(results)
        for _ in 0..<5 { _ = model.handle(.down, page: 10) }
        #expect(model.selectedID == "item-000005")
        let change = insert(results, &snapshot, id: "item-000000a")
        if case .update(let next, _) = change { results = next }
        model.apply(change, now: 1, clock: "")
        #expect(model.selectedID == "item-000005")
        #expect(model.selected == 6)
        _ = model.handle(.end, page: 10)
        #expect(model.selectedID == "item-000019")
        _ = model.handle(.home, page: 10)
        #expect(model.selected == 0)
        _ = model.handle(.pageDown, page: 10)
        #expect(model.selected == 10)
    }

    @Test("keys: / filters rows, Esc clears; Enter shows the item; q quits")
    func keys() {
        let (results, _) = makeResults(30)
        var model = liveModel(results)
        for key in Key.decode(Array("/task 1".utf8)) { _ = model.handle(key, page: 10) }
        #expect(model.visibleCount == 11)  // 1, 10…19
        _ = model.handle(.backspace, page: 10)  // "task ": every row again
        #expect(model.visibleCount == 30)
        for key in Key.decode(Array("1".utf8)) { _ = model.handle(key, page: 10) }
        #expect(model.visibleCount == 11)
        _ = model.handle(.enter, page: 10)
        _ = model.handle(.down, page: 10)
        #expect(model.selectedID == "item-000010")
        _ = model.handle(.enter, page: 10)
        #expect(model.fileToRead == "item-000010.json")
        model.showFile("item-000010.json", .success(Array("{\n  \"title\": \"Task 10\"\n}\n".utf8)))
        var text = model.frame(width: 80, height: 20, now: 1).text.joined(separator: "\n")
        #expect(text.contains("\"title\": \"Task 10\""))
        _ = model.handle(.escape, page: 10)
        _ = model.handle(.escape, page: 10)
        #expect(model.visibleCount == 30)
        text = model.frame(width: 80, height: 20, now: 1).text.joined(separator: "\n")
        #expect(text.contains("q quit"))
        #expect(model.handle(.character("q"), page: 10) == .quit)
        #expect(model.handle(.interrupt, page: 10) == .quit)
        #expect(
            Key.decode([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x36, 0x7E, 0x1B, 0x6A]) == [
                .up, .pageDown, .escape, .character("j"),
            ])
    }

    @Test("a filter follows every update: the rows it shows are those of filtering afresh")
    func filterFollowsUpdates() {
        var random = SeededRandom(seed: 42)
        let words = ["alpha", "beta", "gamma", "ALPHABET", "delta"]
        let query = Query.all.sorted(by: "title")  // modifications move rows too
        var snapshot = StoreSnapshot()
        var results = Results<Item>.initial(query, snapshot, coder: .items)
        var model = liveModel(results, columns: ["title"])
        for key in Key.decode(Array("/alpha".utf8)) { _ = model.handle(key, page: 10) }
        for round in 0..<300 {
            var edits: [EntryChange] = []
            var touched: Set<String> = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let id = "item-\(Int.random(in: 0..<40, using: &random))"
                guard touched.insert(id).inserted else { continue }
                let old = snapshot.entries[UTF8Key(id)]
                var new: Entry?
                if old == nil || Int.random(in: 0..<4, using: &random) > 0 {
                    let title =
                        "\(words.randomElement(using: &random)!) \(Int.random(in: 0..<9, using: &random))"
                    let object: JSONObject = ["id": .string(id), "title": .string(title)]
                    new = Entry(
                        item: Item(
                            id: id, object: object,
                            fingerprint: Fingerprint(Array((id + title).utf8))), error: nil)
                }
                snapshot.setEntry(new, for: UTF8Key(id))
                edits.append(EntryChange(id: id, old: old, new: new))
            }
            snapshot.version += 1
            let (next, changes) = results.applying(edits, names: [], snapshot: snapshot)
            results = next
            guard !changes.isEmpty else { continue }
            model.apply(.update(next, changes), now: Double(round), clock: "12:00:00")

            let expected = results.enumerated().filter {
                $0.element["title"]?.stringValue?.lowercased().contains("alpha") == true
            }.map(\.offset)
            #expect(model.matches == expected, "round \(round)")
            if model.matches != expected { return }
        }
        #expect(model.visibleCount > 0)
    }

    @Test("a big store's search index is built off the main queue and brought up to date")
    func backgroundSearchIndex() {
        let (small, _) = makeResults(100)
        var model = liveModel(small)
        #expect(model.searchIndexToBuild() == nil)  // small: built when the filter needs it

        var (results, snapshot) = makeResults(RowFilter.backgroundIndexThreshold)
        model = liveModel(results, columns: ["title"])
        guard let job = model.searchIndexToBuild() else {
            Issue.record("no index to build for \(results.count) rows")
            return
        }
        #expect(model.searchIndexToBuild() == nil)  // one at a time
        let index = SearchIndex(job.results, table: job.table)  // as the other thread would
        // An edit arrives before the index does: the index must learn of it.
        let change = modify(results, &snapshot, id: "item-000007", title: "Zebra crossing")
        if case .update(let next, _) = change { results = next }
        model.apply(change, now: 1, clock: "12:00:01")
        model.install(index, for: job.results.version)
        #expect(model.hasSearchIndex)
        for key in Key.decode(Array("/zebra".utf8)) { _ = model.handle(key, page: 10) }
        #expect(model.matches == [7])
        _ = model.handle(.escape, page: 10)
        for key in Key.decode(Array("/task 7".utf8)) { _ = model.handle(key, page: 10) }
        #expect(model.matches?.contains(7) == false)  // its old title is forgotten
        #expect(model.matches?.contains(70) == true)

        // An index for results that were replaced meanwhile is dropped.
        model = liveModel(results)
        guard let stale = model.searchIndexToBuild() else { return }
        model.apply(.initial(small), now: 2, clock: "12:00:02")
        model.install(index, for: stale.results.version)
        #expect(!model.hasSearchIndex)
    }

    @Test("only visible rows are laid out: 100,000 items draw the same frame cost as 100")
    func largeStoreFrame() {
        // The time is measured by scripts/bench; here, that a frame of a huge store is
        // right and bounded by the screen, not the store.
        let (results, _) = makeResults(100_000)
        var model = liveModel(results)
        _ = model.handle(.end, page: 20)
        let text = model.frame(width: 80, height: 23, now: 1).text
        #expect(text[21].contains("item-099999"))
        #expect(text[0].contains("100,000 items"))
    }
}
