import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// A view's first screen before its store is loaded, in an order other than the ids': the
/// first rows as the start cache knows the store, each read again from its file. Real
/// directories and a cache a real follower wrote.
@Suite("A first screen from the start cache")
struct FirstScreenTests {
    @Test("sorted or filtered, the first rows are the cache's, each row its file's value now")
    func fromTheCache() async throws {
        let temp = try await StartCacheLiveTests.storeWithCache()
        let store = try JSONStore(directory: temp.path)
        let byN = Query.all.sorted(by: "n", descending: true)
        #expect(try store._firstItems(3, of: byN).map(\.id) == ["item-39", "item-38", "item-37"])
        let small = Query.all.filter(field: "n", equals: 4).sorted(by: "title")
        #expect(try store._firstItems(3, of: small).map(\.id) == ["item-04"])

        // Changed while nothing ran: a row of the cache's first screen read again shows its
        // value now, and sorts by it; a deleted one is not shown. (A file the cache never
        // saw cannot be on it: the loaded results bring it.)
        try temp.writeFile("item-38.json", "{\"title\": \"moved\", \"n\": 5}\n")
        try FileManager.default.removeItem(atPath: temp.path + "/item-39.json")
        try temp.writeFile("item-99.json", "{\"title\": \"new\", \"n\": 1000}\n")
        let first = try store._firstItems(3, of: byN)
        #expect(first.map(\.id) == ["item-37", "item-38"])
        #expect(first.last?["title"] == "moved")

        // In id order the names are listed, so the first screen is exact.
        #expect(try store._firstItems(2, of: .all).map(\.id) == ["item-00", "item-01"])
    }

    @Test("ids the cache knows deleted are no rows; a file the cache could not keep is read")
    func entriesWithoutItems() async throws {
        let temp = try await StartCacheLiveTests.storeWithCache()
        let before = try #require(StartCacheLiveTests.readCache(temp.path)).lookedAt
        for k in 0..<30 {
            try FileManager.default.removeItem(
                atPath: temp.path + String(format: "/item-%02d.json", k))
        }
        try temp.writeFile("item-50.json", "{\"n\": ")
        _ = try await StartCacheLiveTests.firstResults(temp.path) { _ in
            let again = try await StartCacheLiveTests.waitForCache(temp.path, after: before)
            #expect(again?.entries.contains { !$0.signature.isFile } == true)
        }
        try temp.writeFile("item-50.json", "{\"title\": \"fixed\", \"n\": 1000}\n")
        let store = try JSONStore(directory: temp.path)
        // No item has "missing": ties go by id, and a deleted id's empty entry would win.
        let byMissing = Query.all.sorted(by: "missing")
        #expect(
            try store._firstItems(3, of: byMissing).map(\.id) == ["item-30", "item-31", "item-32"])
        let byN = Query.all.sorted(by: "n", descending: true)
        #expect(try store._firstItems(2, of: byN).map(\.id) == ["item-50", "item-39"])
    }

    @Test("no cache, or a damaged one, gives no first screen in another order")
    func noCache() async throws {
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{\"n\": 1}\n")
        let byN = Query.all.sorted(by: "n")
        #expect(try temp.store._firstItems(5, of: byN).isEmpty)
        #expect(try temp.store._firstItems(5, of: .all).map(\.id) == ["a"])

        let cached = try await StartCacheLiveTests.storeWithCache()
        let folder = PrivateFolder(store: cached.path)
        var bytes = try #require(try folder.read(StartCache.fileName))
        let text = Array("\"n\": 17".utf8)
        let at = try #require(
            (0...(bytes.count - text.count)).first {
                bytes[$0..<$0 + text.count].elementsEqual(text)
            })
        bytes[at + text.count - 1] = UInt8(ascii: "9")
        try folder.replace(StartCache.fileName, with: bytes)
        #expect(try JSONStore(directory: cached.path)._firstItems(5, of: byN).isEmpty)
    }
}
