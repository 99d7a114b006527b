import Dispatch
import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

/// A watcher of more items than it keeps journal heads of lets them go once they are used
/// (by its first stamp, or the start cache written with them; a million take 56 MB): what
/// it records after is exactly what it recorded before, each head looked up in the journal
/// when needed. Real directories, real watchers, real sed.
@Suite("History: heads let go past a look at the whole store")
struct HistoryHeadsTests {
    /// How many heads the watcher of `store` knows, once that is at most `count` (20 s at
    /// most; the last count then).
    static func heads(_ store: JSONStore, atMost count: Int) async throws -> Int {
        try await blocking {
            let deadline = Date().addingTimeInterval(20)
            var known = Int.max
            while Date() < deadline {
                known = (try? store.history?.withHeads { $0.count }) ?? Int.max
                if known <= count { break }
                usleep(10_000)
            }
            return known
        }
    }

    @Test(
        "edits after the heads went: each recorded once, from the right version",
        arguments: [true, false])
    func editsAfterForgetting(keepsStartCache: Bool) async throws {
        var options = JSONStore.Options()
        options.historyHeadsKeptAtMost = 2
        options.keepsStartCache = keepsStartCache
        options.writerName = "tests"
        let ids = (0..<10).map { "item-\($0)" }
        let f = try LiveFixture(ids: ids, options: options)
        #expect(await f.started())
        let found = try await HistoryWatchTests.waitForJournal(f.store) { $0.count == 10 }
        #expect(found.allSatisfy { $0.isLate && $0.kind == .created })
        // The first stamp compared all ten with the journal, then they were let go (once
        // the start cache was written with them, when one is kept).
        #expect(try await Self.heads(f.store, atMost: 0) == 0)
        let store = f.store
        #expect(try await blocking { store.memoryUsage()?.heads ?? .max } < 1024)

        // A hand edit, the library's own write, a hand deletion, and another writer's
        // (a store value of its own, as another process has) that the watcher must not
        // record again: each recorded before the next is made.
        func recorded(_ count: Int) async throws {
            _ = await f.settledUpdates()
            _ = try await HistoryWatchTests.waitForJournal(f.store) { entries in
                entries.filter { !$0.isLate }.count >= count
            }
        }
        let sed = ["-i", "s/\"item-0\"/\"zero\"/", f.file("item-0.json")]
        await #expect(try Tool.run("sed", sed) == 0)
        try await recorded(1)
        try f.store.update("item-1") { $0["rank"] = 100 }
        try await recorded(2)
        try FileManager.default.removeItem(atPath: f.file("item-2.json"))
        try await recorded(3)
        var otherOptions = JSONStore.Options()
        otherOptions.writerName = "other"
        try JSONStore(directory: f.path, options: otherOptions).update("item-3") {
            $0["rank"] = 300
        }
        try await recorded(4)
        _ = await f.settledUpdates()
        f.store.engine.configuration.recorder?.drain()
        // Nothing more comes: each was recorded once.
        let live = HistoryWatchTests.journal(f.store).filter { !$0.isLate }
        #expect(
            live.map { "\($0.id) \($0.kind) \($0.source)" } == [
                "item-0 modified another program", "item-1 modified jsonstore tests",
                "item-2 deleted another program", "item-3 modified jsonstore other",
            ])
        #expect(live.first?.changes == [MemberChange(path: "/title", old: "item-0", new: "zero")])
        #expect(live.dropFirst().first?.changes == [MemberChange(path: "/rank", old: 1, new: 100)])
        #expect(live.dropFirst(2).first?.value == ["title": "item-2", "rank": 2])

        // Modifications past the keyframe interval: the head looked up knew how many
        // patches came since the last whole value, and every version rebuilds.
        for n in 0..<20 { try f.store.update("item-4") { $0["rank"] = .number(JSONNumber(n)) } }
        let versions = try f.store.history(of: "item-4")
        #expect(versions.count == 21)
        #expect(versions.filter { $0.keyframe != nil }.count == 20 / JournalHeads.keyframeInterval)
        let oldestFirst = Array(versions.reversed())
        for n in 0..<20 {
            #expect(
                Journal.value(after: Array(oldestFirst.prefix(n + 2)))
                    == ["title": "item-4", "rank": .number(JSONNumber(n))])
        }
    }

    @Test("a cache written after the heads went has every head, carried from the last")
    func cacheAfterForgetting() async throws {
        // The first observation's cache was written with every head, then the watcher let
        // them go; the same store value observed again writes the cache of its new start
        // knowing only the heads of what changed: the others come from the last cache.
        var options = JSONStore.Options()
        options.historyHeadsKeptAtMost = 2
        let temp = try await StartCacheLiveTests.storeWithCache(options: options)
        #expect(try await Self.heads(temp.store, atMost: 0) == 0)
        let before = try #require(StartCacheLiveTests.readCache(temp.path))
        try StartCacheLiveTests.expectJournalHeads(temp.path, store: temp.store)
        try temp.writeFile("item-05.json", "{\"title\": \"changed between two\"}\n")
        let recorder = ChangeRecorder()
        let token = temp.store.observe(.all, on: DispatchQueue(label: "again"), recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        let again = try await StartCacheLiveTests.waitForCache(temp.path, after: before.lookedAt)
        #expect(again?.entry("item-05")?.signature.size == 33)
        try StartCacheLiveTests.expectJournalHeads(temp.path, store: temp.store)
    }

    @Test("heads begun at the end look up what they have not seen; forget keeps the newer")
    func lookUpAndForget() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["n": 1])
        try temp.store.put("a", ["n": 2])
        let journal = try #require(temp.store.history?.journal)
        // Begun where the journal ends, knowing nothing: "a" is looked up, not taken as
        // having no entry.
        var heads = JournalHeads()
        heads.catchUp(journal)
        #expect(heads.count == 0)
        let a = heads.head(of: "a", in: journal)
        #expect(a?.kind == .modified && a?.revision == 2 && a?.sinceKeyframe == 1)
        #expect(heads.head(of: "b", in: journal) == nil)

        // Every head read, then one more entry: forgetting all but what came after
        // revision 2 keeps "b" alone, and says every entry after 2 is known.
        heads.readAll(journal)
        try temp.store.put("b", ["n": 3])
        heads.catchUp(journal)
        #expect(heads.count == 2)
        let forgot = heads.forget(keepingAfter: 2)
        #expect(forgot)
        #expect(heads.count == 1 && heads.coveredAfter == 2)
        #expect(heads.head(of: "b", in: journal)?.revision == 3)
        #expect(heads.head(of: "a", in: journal)?.revision == 2)  // looked up again
        // Not past what was read: nothing is let go.
        let forgotAgain = heads.forget(keepingAfter: 4)
        #expect(!forgotAgain)
        #expect(heads.count == 2)
    }
}
