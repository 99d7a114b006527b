import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// The list view's header: what it says of the store, the filter and the state.
@Suite("The list view's header")
struct ListViewHeaderTests {
    /// 25 items, six of them `status=done`, observed through `--where status=done`.
    func doneOfTwentyFive() throws -> (ListModel, Results<Item>) {
        let (_, snapshot) = makeResults(25)
        var entries: [(UTF8Key, Entry)] = []
        snapshot.entries.forEach { id, entry in
            let old = entry.item(id: id.string)!
            var object = old.object
            let n = Int(id.string.suffix(2))!
            object["status"] = .string(n < 6 ? "done" : "todo")
            let item = Item(id: id.string, object: object, fingerprint: old.fingerprint)
            entries.append((id, Entry(item: item, error: nil)))
        }
        let store = StoreSnapshot(
            version: 1, entries: SortedTree(sortedDistinct: entries), invalid: [:])
        let condition = try Condition(parsing: "status=done")
        let query = Query.all.filter { condition.matches($0) }
        let results = Results<Item>.initial(query, store, coder: .items)
        var model = ListModel(storePath: "tasks", requestedColumns: nil, scope: [condition])
        model.setState(.live, now: 0)
        model.apply(.initial(results), now: 0, clock: "12:00:00")
        return (model, results)
    }

    @Test("--where is in the header, with how many of the store's items it keeps")
    func whereAndSize() throws {
        var (model, results) = try doneOfTwentyFive()
        #expect(results.count == 6)
        let header = model.frame(width: 100, height: 8, now: 1).text[0]
        #expect(header.contains("· filter status=done · 6 of 25 items · live"), "\(header)")
        // The / filter narrows it further, and is said beside it.
        for key in Key.decode(Array("/item-000003".utf8)) + [.enter] {
            _ = model.handle(key, page: 5)
        }
        let narrowed = model.frame(width: 100, height: 8, now: 1).text[0]
        let both = "· filter status=done item-000003 · 1 of 25 items"
        #expect(narrowed.contains(both), "\(narrowed)")
        // With no filter at all, the count alone.
        let (plain, _) = makeResults(25)
        var whole = liveModel(plain)
        let unfiltered = whole.frame(width: 100, height: 8, now: 1).text[0]
        #expect(unfiltered.contains(" s · 25 items · live"), "\(unfiltered)")
    }

    @Test("a long etcd address is shortened before the state leaves the header")
    func longAddress() {
        let (results, _) = makeResults(3)
        let hosts = (1...6).map { "etcd-member-\($0).cluster.example.org:2379" }
        let address = "etcds://" + hosts.joined(separator: ",") + "/tasks"
        var model = liveModel(results, path: address)
        var header = model.frame(width: 80, height: 6, now: 1).text[0]
        #expect(header.contains("3 items · live"), "\(header)")
        #expect(header.contains("etcds://etcd-member-1") && header.contains("…"), "\(header)")
        #expect(header.contains("/tasks"), "the prefix is kept: \(header)")
        model.setState(.resyncing(reason: "watch compacted"), now: 2)
        header = model.frame(width: 80, height: 6, now: 2).text[0]
        #expect(header.contains("resyncing: watch compacted"), "with its reason: \(header)")
        // A short path is left whole.
        var short = liveModel(results, path: "tasks")
        #expect(short.frame(width: 80, height: 6, now: 1).text[0].contains(" tasks · 3 items"))
    }
}
