import TestSupport
import Testing

@testable import JSONStore

/// The first screen's items, read without reading the store: the same as the first of a
/// whole load, in id order by bytes.
@Suite("The first items of a store")
struct FirstItemsTests {
    @Test("the smallest ids by bytes, whatever the directory's order; other names skipped")
    func firstItems() throws {
        let temp = try TemporaryStore()
        var random = SeededRandom(seed: 5)
        var ids = ["a", "a-b", "a.b", "B", "é", "e\u{301}", "z"] + (0..<200).map { "item-\($0)" }
        ids.shuffle(using: &random)
        for id in ids { try temp.writeFile(id + ".json", #"{"title": "\#(id)"}"#) }
        try temp.writeFile(".hidden.json", "{}")
        try temp.writeFile("notes.txt", "not an item")
        try temp.writeFile("0 bad\u{1}.json", "{}")
        let loaded = try temp.store.load().items.map(\.id)
        for count in [1, 3, 7, 50, 500] {
            let first = try temp.store._firstItems(count).map(\.id)
            #expect(first == Array(loaded.prefix(count)), "\(count)")
        }
        #expect(try temp.store._firstItems(3).map(\.id) == ["B", "a", "a-b"])
    }
}
