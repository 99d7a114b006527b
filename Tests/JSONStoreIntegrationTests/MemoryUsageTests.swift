import Dispatch
import Foundation
import JSONStore
import TestSupport
import Testing

/// `JSONStore.memoryUsage()`, what `doctor --memory` prints: each part of a live store's
/// memory counted once, from the blocks `malloc` gave it. Real files, a real watch.
@Suite("A live store's memory, by what holds it")
struct MemoryUsageTests {
    @Test("the bytes once, 64 bytes of index an id, long ids apart, one tree with an invalid file")
    func parts() async throws {
        let temp = try TemporaryStore()
        var fileBytes = 0
        for k in 0..<300 {
            // Half the ids over 15 bytes: their text is kept apart from the index.
            let id = String(format: k % 2 == 0 ? "item-%03d" : "a-longer-item-name-%03d", k)
            let text = "{\"title\": \"item \(k)\", \"n\": \(k)}\n"
            try temp.writeFile(id + ".json", text)
            fileBytes += text.utf8.count
        }
        let recorder = ChangeRecorder()
        let token = temp.store.observe(.all, on: DispatchQueue(label: "memory"), recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        let store = temp.store
        // The history's first look has recorded every item: their heads are known.
        _ = try await HistoryWatchTests.waitForJournal(store) { $0.count >= 300 }
        let usage = try #require(try await blocking { store.memoryUsage() })
        #expect(usage.items == 300)
        #expect(usage.fileBytes == fileBytes)
        // The chunks hold every byte, with at most their unused ends besides.
        #expect(usage.bytes >= fileBytes && usage.bytes < fileBytes + (4 << 20))
        // An id and its entry side by side in a leaf (64 bytes: the id is kept once, as
        // the key, not again in the item), and the leaves' share of their arrays.
        #expect((64...72).contains(usage.index / 300), "\(usage.index / 300) bytes an id")
        // A long id's block: 32 bytes of header, 22 of text and a NUL, malloc's 8, rounded
        // to 16: 64 bytes, counted once.
        #expect(usage.ids % 64 == 0 && (150 * 64...300 * 64).contains(usage.ids))
        // Every item in id order: the results are the store's own tree.
        #expect(usage.invalid == 0 && usage.results == 0)
        #expect(usage.heads > 0)
        #expect(usage.total == usage.bytes + usage.index + usage.ids + usage.heads)

        // A file invalid since it appeared, an entry with no item: the results still
        // share the store's tree, skipping it, and have every item in its place.
        try temp.writeFile("item-151.json", "{\"title\": ")
        #expect(await recorder.wait { $0.results.invalid.map(\.name) == ["item-151.json"] })
        let after = try #require(try await blocking { store.memoryUsage() })
        #expect(after.items == 300)
        #expect(after.invalid > 0)
        #expect(after.results == 0)
        let results = recorder.current.results
        #expect(recorder.current.violations.isEmpty)
        #expect(results.count == 300)
        #expect(results.index(ofID: "item-151") == nil)
        #expect(results.map(\.id) == (0..<300).map { results[$0].id })
        #expect(results.map(\.id) == results.map(\.id).sorted())  // ASCII: bytes' order
        #expect(results.index(ofID: "item-152").map { results[$0].id } == "item-152")
    }

    @Test("nothing to measure before a store is loaded")
    func notLoaded() async throws {
        let temp = try TemporaryStore.tasks()
        let store = temp.store
        let usage = try await blocking { store.memoryUsage(timeout: 10) }
        #expect(usage == nil)
    }
}
