import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// Results of these items (ids sorted), as the store would deliver them.
func makeResults(_ items: [(id: String, object: JSONObject)]) -> (Results<Item>, StoreSnapshot) {
    var elements: [(UTF8Key, Entry)] = []
    for (id, object) in items.sorted(by: { UTF8Key($0.id) < UTF8Key($1.id) }) {
        var object = object
        object["id"] = .string(id)
        let item = Item(id: id, object: object, fingerprint: Fingerprint(Array(id.utf8)))
        elements.append((UTF8Key(id), Entry(item: item, error: nil)))
    }
    let snapshot = StoreSnapshot(
        version: 1, entries: SortedTree(sortedDistinct: elements), invalid: [:])
    return (Results<Item>.initial(.all, snapshot, coder: .items), snapshot)
}

/// How the list view shares the screen: `?`'s keys on a small terminal, the list and `p`'s
/// pane, the columns under a filter.
@Suite("The list view's layout")
struct ListViewLayoutTests {
    /// Tasks as in `data/`: a title, a status, a priority, tags, a time.
    static func tasks(_ count: Int) -> Results<Item> {
        makeResults(
            (0..<count).map { i in
                (
                    "task-number-\(i)",
                    [
                        "title": .string("Back up the photo library \(i)"), "status": "todo",
                        "priority": 2, "tags": ["home", "urgent"],
                        "updated": "2026-11-18T08:36:00Z",
                    ]
                )
            }
        ).0
    }

    @Test("? at 80×24 shows every key: it scrolls, and says there is more")
    func helpFits() {
        var model = liveModel(Self.tasks(3))
        _ = model.handle(.character("?"), page: ListModel.page(height: 24))
        var seen = Set<String>()
        var screen = model.frame(width: 80, height: 24, now: 1).text
        #expect(screen.joined().contains("more"), "\(screen.joined(separator: "\n"))")
        for _ in 0..<ListKeys.bindings.count {
            for line in screen { seen.insert(line) }
            _ = model.handle(.down, page: ListModel.page(height: 24))
            screen = model.frame(width: 80, height: 24, now: 1).text
        }
        #expect(model.showsHelp, "↓ scrolls the keys, it does not close them")
        let text = seen.joined(separator: "\n")
        for binding in ListKeys.bindings {
            #expect(text.contains(binding.help), "\(binding.help)")
        }
        _ = model.handle(.character("x"), page: 21)
        #expect(!model.showsHelp, "another key closes it")
    }

    @Test("p at 120 columns: the pane takes what its JSON needs, the list the rest")
    func paneByNeed() {
        var model = liveModel(Self.tasks(5))
        _ = model.handle(.character("p"), page: 9)
        let lines = model.frame(width: 120, height: 14, now: 1).text
        // The row's title keeps more than a few characters beside the pane (it had 7).
        let list = String(lines[2].prefix { $0 != "│" })
        #expect(list.contains("Back up the "), "\(lines[2])")
        // The pane is no wider than its widest line and a margin.
        let widest = DetailPane.lines(of: model.results[0]).map { TextWidth.of($0.text) }.max()!
        let rule = lines[2].distance(
            from: lines[2].startIndex, to: lines[2].lastIndex(of: "│")!)
        #expect(120 - rule - 1 <= widest + 2, "the pane starts at \(rule)")
        // Narrow JSON or wide, the list keeps at least the old share at 120 columns.
        #expect(rule >= 120 * 11 / 20)
    }

    @Test("p beside a list scrolled far down, then filtered to a few rows, draws")
    func paneAfterFilter() {
        var model = liveModel(Self.tasks(100))
        _ = model.handle(.character("p"), page: 9)
        _ = model.handle(.end, page: 9)
        _ = model.frame(width: 120, height: 12, now: 1)  // scrolled to the last rows
        for key in Key.decode(Array("/number-7".utf8)) + [.enter] {
            _ = model.handle(key, page: 9)
        }
        let lines = model.frame(width: 120, height: 12, now: 1).text
        #expect(lines[2].contains("task-number-7"), "\(lines[2])")
    }

    @Test("columns follow the rows a filter keeps, and all items again when it is cleared")
    func columnsFollowFilter() {
        var items: [(id: String, object: JSONObject)] = (0..<30).map { i in
            (
                "task-\(i)",
                ["title": "T", "n": 1, "a": 1, "b": 1, "c": 1, "d": 1] as JSONObject
            )
        }
        items += (0..<3).map { i in
            ("book-\(i)", ["title": "B", "kind": "book", "author": "Le Guin"] as JSONObject)
        }
        var model = liveModel(makeResults(items).0)
        #expect(!model.columns.contains("author"))
        for key in Key.decode(Array("/kind=book".utf8)) + [.enter] {
            _ = model.handle(key, page: 9)
        }
        #expect(model.visibleCount == 3)
        #expect(model.columns.contains("author"), "\(model.columns)")
        let lines = model.frame(width: 100, height: 8, now: 1).text
        #expect(lines[1].contains("AUTHOR") && lines[2].contains("Le Guin"), "\(lines)")
        _ = model.handle(.escape, page: 9)
        #expect(model.visibleCount == 33 && !model.columns.contains("author"))
    }
}
