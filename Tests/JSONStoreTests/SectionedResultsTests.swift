import TestSupport
import Testing

@testable import JSONStore

/// Grouped results under random changes: each change set applied to the previous
/// sections as a sectioned table applies Realm's gives the sections built afresh, and
/// each section's count, sum, minimum and maximum are those of its items.
@Suite("Grouped results against a model")
struct SectionedResultsTests {
    static let statuses: [JSONValue?] = [
        .string("todo"), .string("doing"), .string("done"), nil, .null, .number(JSONNumber(2)),
        .number(JSONNumber(text: "2.0")!),
        // Arrays: the item is in the section of each distinct element.
        .array([.string("todo"), .string("done")]), .array([]), .array([.string("todo")]),
        .array([
            .string("doing"), .number(JSONNumber(2)), .string("doing"),
            .number(JSONNumber(text: "2.0")!),
        ]),
    ]
    static let estimates = ["0.1", "0.2", "3", "-1.5", "1e1", "7.25"]

    func item(_ id: String, status: JSONValue?, rank: Int, estimate: String?) -> Item {
        var object: JSONObject = ["id": .string(id), "rank": .number(JSONNumber(rank))]
        if let status { object["status"] = status }
        if let estimate { object["estimate"] = .number(JSONNumber(text: estimate)!) }
        let text = "\(String(describing: status))-\(rank)-\(estimate ?? "none")"
        return Item(id: id, object: object, fingerprint: Fingerprint(Array(text.utf8)))
    }

    @Test(
        "each change set applies to the previous sections, and the figures follow",
        arguments: [
            Query.all.grouped(by: "status", aggregating: ["estimate"]),
            Query.all.sorted(by: "rank", descending: true).grouped(
                by: "status", descending: true, aggregating: ["estimate"]),
            Query.all.filter { ($0["rank"]?.intValue ?? 0) % 3 != 0 }.sorted(by: "rank")
                .grouped(by: "status", aggregating: ["estimate"]),
            Query.all.sorted(by: "estimate").grouped(by: "rank", aggregating: ["estimate"]),
        ])
    func randomChanges(query: Query) throws {
        var random = SeededRandom(seed: 11)
        var snapshot = StoreSnapshot()
        var results = Results<Item>.initial(query, snapshot, coder: .items)
        for round in 0..<400 {
            let changes = snapshot.randomEdits(
                round: round, most: 8, ids: 40, choices: 5, using: &random
            ) { id, random in
                item(
                    id, status: Self.statuses.randomElement(using: &random)!,
                    rank: Int.random(in: 0..<4, using: &random),
                    estimate: Bool.random(using: &random)
                        ? Self.estimates.randomElement(using: &random) : nil)
            }
            let (next, changeSet) = results.applying(changes, names: [], snapshot: snapshot)
            let fresh = Results<Item>.initial(query, snapshot, coder: .items)
            #expect(next.map(\.id) == fresh.map(\.id))
            try requireSections(
                changeSet, from: results, to: next, fresh: fresh, aggregated: "estimate")
            results = next
        }
        #expect(results.sections.count > 1)
    }

    @Test("sections follow values as sorting orders them, the missing first")
    func order() {
        var snapshot = StoreSnapshot()
        for (id, status) in [("a", "todo"), ("b", "done"), ("c", nil), ("d", "todo")] {
            let value = status.map { JSONValue.string($0) }
            snapshot.setEntry(
                Entry(item: item(id, status: value, rank: 1, estimate: "1.5"), error: nil),
                for: UTF8Key(id))
        }
        let query = Query.all.grouped(by: "status", aggregating: ["estimate"])
        let results = Results<Item>.initial(query, snapshot, coder: .items)
        #expect(results.sections.map(\.key) == [nil, .string("done"), .string("todo")])
        #expect(results.sections.map { $0.map(\.id) } == [["c"], ["b"], ["a", "d"]])
        #expect(results.section(for: .string("todo"))?.sum(of: "estimate")?.text == "3")
        #expect(results.section(for: .string("todo"))?.sum(of: "rank") == nil)
        #expect(results.section(for: .string("gone")) == nil)
        let descending = Results<Item>.initial(
            Query.all.grouped(by: "status", descending: true), snapshot, coder: .items)
        #expect(descending.sections.map(\.key) == [.string("todo"), .string("done"), nil])
        #expect(Results<Item>.initial(.all, snapshot, coder: .items).sections.isEmpty)
    }

    @Test("an array member puts an item in the section of each distinct element")
    func arrays() throws {
        func entry(_ id: String, _ tags: JSONValue?) -> Entry {
            var object: JSONObject = ["id": .string(id), "estimate": .number(JSONNumber(1))]
            if let tags { object["tags"] = tags }
            let text = "\(id)-\(String(describing: tags))"
            let item = Item(id: id, object: object, fingerprint: Fingerprint(Array(text.utf8)))
            return Entry(item: item, error: nil)
        }
        func strings(_ values: String...) -> JSONValue { .array(values.map { .string($0) }) }
        var snapshot = StoreSnapshot()
        let two = JSONValue.array([
            .string("work"), .number(JSONNumber(2)), .number(JSONNumber(text: "2.0")!),
        ])
        let tagged: [(String, JSONValue?)] = [
            ("a", strings("home", "urgent")), ("b", strings("home")),
            ("c", strings("urgent", "home", "home")), ("d", strings()), ("e", nil),
            ("f", .string("home")), ("g", two),
        ]
        for (id, tags) in tagged {
            snapshot.setEntry(entry(id, tags), for: UTF8Key(id))
        }
        let query = Query.all.grouped(by: "tags", aggregating: ["estimate"])
        let results = Results<Item>.initial(query, snapshot, coder: .items)
        let two2 = JSONValue.number(JSONNumber(2))
        #expect(
            results.sections.map(\.key)
                == [nil, two2, .string("home"), .string("urgent"), .string("work")])
        #expect(
            results.sections.map { $0.map(\.id) }
                == [["d", "e"], ["g"], ["a", "b", "c", "f"], ["a", "c"], ["g"]])
        #expect(results.sections.map(\.count) == [2, 1, 4, 2, 1])
        #expect(results.section(for: .string("urgent"))?.sum(of: "estimate")?.text == "2")
        #expect(results.count == 10)
        #expect(results.index(ofID: "a") == 3)  // its first place
        #expect(results.index(ofID: "g") == 2)

        // a's urgent becomes work: it leaves one section and enters another.
        var changed = snapshot
        changed.setEntry(entry("a", strings("home", "work")), for: UTF8Key("a"))
        changed.version += 1
        let moving = [
            EntryChange(
                id: "a", old: snapshot.entries[UTF8Key("a")], new: changed.entries[UTF8Key("a")])
        ]
        let (next, changes) = results.applying(moving, names: [], snapshot: changed)
        let fresh = Results<Item>.initial(query, changed, coder: .items)
        try requireSections(changes, from: results, to: next, fresh: fresh, aggregated: "estimate")
        #expect(changes.sections.deletions == [RowPath(section: 3, row: 0)])
        #expect(changes.sections.insertions == [RowPath(section: 4, row: 0)])
        #expect(changes.sections.modifications == [RowPath(section: 2, row: 0)])
        #expect(changes.sections.recounted == [3, 4])

        // c, in two sections, goes: urgent goes with it.
        var gone = changed
        gone.setEntry(nil, for: UTF8Key("c"))
        gone.version += 1
        let deletion = [EntryChange(id: "c", old: changed.entries[UTF8Key("c")], new: nil)]
        let (last, removal) = next.applying(deletion, names: [], snapshot: gone)
        try requireSections(
            removal, from: next, to: last,
            fresh: Results<Item>.initial(query, gone, coder: .items), aggregated: "estimate")
        #expect(removal.deletions.count == 2)
        #expect(removal.sections.sectionsToDelete == [3])
        #expect(removal.sections.deletions == [RowPath(section: 2, row: 2)])
        #expect(last.section(for: JSONValue.string("home"))?.count == 3)
    }

    @Test("sums stay exact as numbers come and go", arguments: [7, 8, 9])
    func exactSums(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var sum = ExactSum()
        var terms: [JSONNumber] = []
        let texts = ["0.1", "0.2", "-0.3", "1e-3", "12345678901234567890", "2.50", "-7", "0"]
        for _ in 0..<300 {
            if terms.isEmpty || Bool.random(using: &random) {
                let term = JSONNumber(text: texts.randomElement(using: &random)!)!
                terms.append(term)
                sum.add(term)
            } else {
                sum.subtract(terms.remove(at: Int.random(in: 0..<terms.count, using: &random)))
            }
            var fresh = ExactSum()
            for term in terms { fresh.add(term) }
            #expect(sum.value.text == fresh.value.text)
            #expect(sum.isExact)
        }
        var point = ExactSum()
        for text in ["0.1", "0.2"] { point.add(JSONNumber(text: text)!) }
        #expect(point.value.text == "0.3")
        point.subtract(JSONNumber(text: "0.3")!)
        #expect(point.value.text == "0")
    }
}
