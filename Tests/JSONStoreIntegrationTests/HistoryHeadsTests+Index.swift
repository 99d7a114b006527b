import Dispatch
import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

extension HistoryHeadsTests {
    @Test("after a start from the cache, the cache it writes is the heads' index, not the journal")
    func cacheIsTheIndex() async throws {
        var options = JSONStore.Options()
        options.historyHeadsKeptAtMost = 2
        let temp = try await StartCacheLiveTests.storeWithCache(options: options)
        let history = try #require(temp.store.history)
        // One item deleted by another writer before the next start, from the cache: its
        // heads are those of what changed, and the cache it writes has every head (the
        // deleted item's too, with no file).
        try JSONStore(directory: temp.path).delete("item-39")
        let recorder = ChangeRecorder()
        let token = temp.store.observe(.all, on: DispatchQueue(label: "again"), recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 && $0.results.count == 39 })
        let index = try await blocking { () -> StartCache.HeadIndex? in
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                let index = try? history.withHeads { $0.index }
                if let index, index.stamp.revision == history.journal.end()?.lastRevision {
                    return index
                }
                usleep(10_000)
            }
            return nil
        }
        let found = try #require(index, "the heads went and took the cache as their index")

        // Each head as the journal has it, the deleted one included; an id the journal
        // never had: none.
        let journal = history.journal
        for k in 0..<StartCacheLiveTests.count {
            let id = String(format: "item-%02d", k)
            #expect(found.head(of: id) == .some(journal.head(of: id)), "\(id)")
        }
        #expect(journal.head(of: "item-39")?.kind == .deleted)
        #expect(found.head(of: "item-40") == .some(nil))
        #expect(found.head(of: "") == .some(nil))

        // The heads look an item up there, not in the journal: given an empty one, they
        // still know item 7.
        let empty = try TemporaryStore()
        let nowhere = try #require(empty.store.history?.journal)
        let head = try history.withHeads { $0.head(of: "item-07", in: nowhere) }
        #expect(head != nil && head == journal.head(of: "item-07"))

        // Another writer's change after the cache's stamp: the heads take it in from the
        // journal and answer with it, not with the cache's older head.
        let older = try #require(found.head(of: "item-08") ?? nil)
        #expect(older.kind == .created)
        try JSONStore(directory: temp.path).update("item-08") { $0["rank"] = 8 }
        let newer = try #require(
            try history.withCurrentHeads { $0.head(of: "item-08", in: journal) })
        let recorded = try #require(journal.head(of: "item-08"))
        // Its revision, kind and fingerprint; how many patches since a whole value is not
        // known to heads that took in an entry of an item they had not looked up, so the
        // next entry keeps the whole value.
        #expect(newer.kind == .modified && recorded.kind == .modified)
        #expect(newer.revision == recorded.revision && newer.fingerprint == recorded.fingerprint)
        #expect(newer.revision > older.revision)

        // The cache replaced (another start's, or a hand's): the index knows nothing more.
        let folder = PrivateFolder(store: temp.path)
        let bytes = try #require(try folder.read(StartCache.fileName))
        try folder.replace(StartCache.fileName, with: bytes)
        #expect(found.head(of: "item-08") == nil)
    }
}
