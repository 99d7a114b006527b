import Dispatch
import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

/// A second start from the start cache: it reads only the files that changed while
/// nothing ran, and its first results are exactly what a full read gives, whatever was
/// done meanwhile (rewrites, deletions, new files, a same-size rewrite with its time put
/// back, a file made invalid, a touch). Real directories, real files, real watchers.
@Suite("The start cache, live")
struct StartCacheLiveTests {
    static let count = 40

    /// A store of `count` items, observed once so that its start cache is written.
    static func storeWithCache(options: JSONStore.Options = JSONStore.Options()) async throws
        -> TemporaryStore
    {
        let temp = try TemporaryStore(options: options)
        for k in 0..<count {
            try temp.writeFile(
                String(format: "item-%02d.json", k),
                "{\n  \"title\": \"item \(k)\",\n  \"n\": \(k)\n}\n")
        }
        try await writeCache(temp, entries: count)
        return temp
    }

    /// Observes `temp`'s store until its start cache is written, with `entries` entries.
    static func writeCache(_ temp: TemporaryStore, entries: Int) async throws {
        let recorder = ChangeRecorder()
        let token = temp.store.observe(.all, on: DispatchQueue(label: "first"), recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        let written = try await waitForCache(temp.path)
        #expect(written?.entries.count == entries)
    }

    /// The cache of the store at `path` once it is there and decodes, and its look began
    /// after `lookedAt` (60 s at most: after a start from a cache, the next comes as long
    /// after the first results as the start took, and a start under ThreadSanitizer beside
    /// the whole suite takes seconds; the 20 s this waited once ran out in a CI run).
    static func waitForCache(_ path: String, after lookedAt: Int64 = .min) async throws
        -> StartCache?
    {
        try await blocking {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if let cache = readCache(path), cache.lookedAt > lookedAt { return cache }
                usleep(10_000)
            }
            return nil
        }
    }

    static func readCache(_ path: String) -> StartCache? {
        guard let dir = try? FileDescriptor.openDirectory(path) else { return nil }
        defer { dir.close() }
        guard let directory = StartCache.directory(of: dir),
            let bytes = try? PrivateFolder(store: path).read(StartCache.fileName)
        else { return nil }
        return try? StartCache(decoding: bytes, for: directory)
    }

    /// The first results of a new store value on `path` (a new pipeline, as a new process
    /// has), with what its start took from the cache.
    ///
    /// - Parameter meanwhile: run while the observation lasts, with the store.
    static func firstResults(
        _ path: String, options: JSONStore.Options = JSONStore.Options(),
        meanwhile: (JSONStore) async throws -> Void = { _ in }
    ) async throws -> (Results<Item>, StartCachePlan) {
        let store = try JSONStore(directory: path, options: options)
        let recorder = ChangeRecorder()
        let token = store.observe(.all, on: DispatchQueue(label: "second"), recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        let plan = await store.engine.startCache
        try await meanwhile(store)
        return (recorder.current.results, plan)
    }

    /// Items and invalid files as a full read of the files gives them.
    static func expectFullRead(_ results: Results<Item>, _ path: String) throws {
        let contents = try JSONStore(directory: path).load()
        #expect(results.map(\.id) == contents.items.map(\.id))
        #expect(Array(results) == contents.items)
        #expect(results.map(\.object) == contents.items.map(\.object))
        #expect(results.invalid.map(\.name) == contents.invalid.map(\.name))
    }

    @Test("edits made while nothing ran are all in the second start, which reads only them")
    func editsWhileStopped() async throws {
        let temp = try await Self.storeWithCache()
        let recorded = HistoryWatchTests.journal(temp.store).count
        let firstLook = try #require(Self.readCache(temp.path)).lookedAt
        try Self.editWhileStopped(temp)

        let (results, plan) = try await Self.firstResults(temp.path) { store in
            // The journal gets what changed while nothing ran, found late, from the
            // cache's stamp on: not a look at the whole journal.
            let late = try await HistoryWatchTests.waitForJournal(store) { entries in
                Set(entries.dropFirst(recorded).map(\.id)).isSuperset(of: Self.changedLate)
            }
            Self.expectLateEdits(late.dropFirst(recorded))
            // The cache written after this start has what it read.
            #expect(try await Self.waitForCache(temp.path, after: firstLook) != nil)
        }
        try Self.expectFullRead(results, temp.path)
        #expect(results[results.index(ofID: "item-03")!]["title"] == "ITEM 3")
        #expect(results.error(for: "item-04") != nil)
        #expect(results.index(ofID: "item-02") == nil)
        // Read: 01, 03, 04, 05 and the new 99; the other 35 from the cache.
        #expect(plan.read == 5)
        #expect(plan.taken == Self.count - 5)
        // A third start reads only the invalid file: what the second read, the touched
        // file too, is in the cache it wrote, with the signatures the files have now.
        let (third, again) = try await Self.firstResults(temp.path)
        try Self.expectFullRead(third, temp.path)
        #expect(again.read == 1)
    }

    /// Whether the cache of the store at `path` keeps, for every id, the journal's head at
    /// its stamp as the journal itself gives it (nothing was appended since).
    static func expectJournalHeads(_ path: String, store: JSONStore) throws {
        let cache = try #require(readCache(path))
        let journal = try #require(store.history?.journal)
        #expect(cache.headsComplete)
        #expect(cache.stamp?.revision == journal.end()?.lastRevision)
        var ids = Set(cache.entries.map(\.id))
        _ = journal.read { ids.insert($0.id) }
        for id in ids {
            let head = cache.entry(id)?.head ?? .none
            #expect(head == StartCache.Head(.some(journal.head(of: id))), "\(id)")
        }
    }

    @Test(
        "the cache keeps the journal's heads; one written after a start from it does too",
        arguments: [StoreHistory.headsKeptAtMost, 0])
    func headsKept(keptAtMost: Int) async throws {
        // With none kept, the watcher lets the heads go once its cache is written with them
        // all: the next one carries them over.
        var options = JSONStore.Options()
        options.historyHeadsKeptAtMost = keptAtMost
        let temp = try await Self.storeWithCache(options: options)
        try Self.expectJournalHeads(temp.path, store: temp.store)
        try temp.writeFile("item-01.json", "{\"title\": \"changed while stopped\"}\n")
        try FileManager.default.removeItem(atPath: temp.path + "/item-02.json")
        try temp.writeFile("item-77.json", "{\"title\": \"new\"}\n")
        let before = try #require(Self.readCache(temp.path))
        let path = temp.path
        _ = try await Self.firstResults(path, options: options) { store in
            // That start's own cache: written once its first version is stamped.
            let again = try await Self.waitForCache(path, after: before.lookedAt)
            #expect(again != nil)
            try Self.expectJournalHeads(path, store: store)
            // The deleted item is kept as the journal's, without a file.
            #expect(again?.entry("item-02")?.signature == .absent)
            #expect(again?.entry("item-77")?.signature.size == 17)
        }
    }

    /// What `editsWhileStopped` changes that the journal records (not the invalid file, nor
    /// the touch).
    static let changedLate: Set<String> = ["item-01", "item-02", "item-03", "item-99"]

    /// The journal's entries of `editWhileStopped`'s edits, each seen late.
    static func expectLateEdits(_ found: ArraySlice<HistoryEntry>) {
        #expect(found.allSatisfy { $0.isLate })
        #expect(Set(found.map(\.id)) == Self.changedLate)
        #expect(found.first { $0.id == "item-02" }?.kind == .deleted)
        #expect(found.first { $0.id == "item-99" }?.kind == .created)
        #expect(
            found.first { $0.id == "item-03" }?.changes
                == [MemberChange(path: "/title", old: "item 3", new: "ITEM 3")])
    }

    /// Rewrites `name` in `temp` with `text` and puts both its times back: only its change
    /// time tells. Returns its status before.
    @discardableResult
    static func rewriteKeepingTimes(_ temp: TemporaryStore, _ name: String, _ text: String) throws
        -> stat
    {
        let path = temp.path + "/" + name
        var before = stat()
        #expect(stat(path, &before) == 0)
        try temp.writeFile(name, text)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        return before
    }

    /// The edits made while nothing ran: a rewrite of another size (item-01), a deletion
    /// (item-02), a new file (item-99), a file made invalid (item-04), a rewrite of the
    /// same size with both its times put back (item-03), a touch (item-05).
    static func editWhileStopped(_ temp: TemporaryStore) throws {
        let file = { (k: Int) in temp.path + String(format: "/item-%02d.json", k) }
        try temp.writeFile("item-01.json", "{\"title\": \"rewritten, longer than before\"}\n")
        try FileManager.default.removeItem(atPath: file(2))
        try temp.writeFile("item-99.json", "{\"title\": \"new\"}\n")
        try temp.writeFile("item-04.json", "{\"title\": ")
        let before = try rewriteKeepingTimes(
            temp, "item-03.json", "{\n  \"title\": \"ITEM 3\",\n  \"n\": 3\n}\n")
        var after = stat()
        #expect(stat(file(3), &after) == 0)
        #expect(after.st_size == before.st_size && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        // Touched only: read again, the same item.
        #expect(utimensat(AT_FDCWD, file(5), nil, 0) == 0)
    }

    /// A store whose cache says of item 7 something its file does not: a start that takes
    /// the item from the cache shows it. `lookedAt` changes the look's start.
    static func storeWithFalseCache(lookedAt: ((StartCache.Entry) -> Int64)? = nil)
        async throws -> TemporaryStore
    {
        let temp = try await storeWithCache()
        let cache = try #require(readCache(temp.path))
        var (header, entries) = (cache.header, Array(cache.entries))
        let k = try #require(entries.firstIndex { $0.id == "item-07" })
        let told = Array("{\"title\":\"from the cache\"}".utf8)
        entries[k].bytes = ItemBytes(told)
        entries[k].fingerprint = Fingerprint(told)
        if let lookedAt { header.lookedAt = lookedAt(entries[k]) }
        StartCache.write(store: temp.path, header: header, entries: entries)
        return temp
    }

    @Test("a file whose signature is the one recorded is taken from the cache, not read")
    func trustedWhenUnchanged() async throws {
        let temp = try await Self.storeWithFalseCache()
        let (results, plan) = try await Self.firstResults(temp.path)
        #expect(results[results.index(ofID: "item-07")!]["title"] == "from the cache")
        #expect(plan.read == 0)
    }

    @Test("a file changed in the tick its look began is read again (git's racy case)")
    func racyIsRead() async throws {
        // The look began when item 7 last changed: it may have changed again in that tick.
        let temp = try await Self.storeWithFalseCache { $0.signature.changed }
        let (results, plan) = try await Self.firstResults(temp.path)
        #expect(results[results.index(ofID: "item-07")!]["title"] == "item 7")
        #expect(plan.read >= 1)
    }

    @Test("a damaged cache, or one of other terms, is ignored: every file read, then rewritten")
    func damagedIgnored() async throws {
        let temp = try await Self.storeWithCache()
        let folder = PrivateFolder(store: temp.path)
        var bytes = try #require(try folder.read(StartCache.fileName))
        bytes[bytes.count / 2] ^= 0xFF
        try folder.replace(StartCache.fileName, with: bytes)
        try temp.writeFile("item-01.json", "{\"title\": \"changed\"}\n")
        let (results, plan) = try await Self.firstResults(temp.path) { _ in
            // Written again by that start, and whole.
            let again = try await Self.waitForCache(temp.path)
            #expect(again?.entries.count == Self.count)
        }
        try Self.expectFullRead(results, temp.path)
        #expect(plan.taken == 0)

        // A schema put in force since: the cache's items were not checked by it.
        try folder.replace(
            StoreSchema.fileName, with: Array(#"{"required": ["n"]}"#.utf8))
        let (checked, underSchema) = try await Self.firstResults(temp.path)
        #expect(underSchema.taken == 0)
        #expect(checked.error(for: "item-01") != nil)
    }

    @Test("a cache a killed follower left staged is removed by the next writer, not a fresh one")
    func abandonedStagedCacheRemoved() async throws {
        let temp = try await Self.storeWithCache()
        let folder = temp.path + "/.jsonstore/"
        let (abandoned, inProgress) = (
            folder + ".jsonstore-00000000000000aa.tmp", folder + ".jsonstore-00000000000000bb.tmp"
        )
        for path in [abandoned, inProgress] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data(count: 4096)))
        }
        // Left by a writer killed two minutes ago.
        var past = [timespec](
            repeating: timespec(tv_sec: time(nil) - 120, tv_nsec: 0), count: 2)
        #expect(utimensat(AT_FDCWD, abandoned, &past, 0) == 0)
        let firstLook = try #require(Self.readCache(temp.path)).lookedAt
        try temp.writeFile("item-01.json", "{\"title\": \"changed\"}\n")
        _ = try await Self.firstResults(temp.path) { _ in
            let written = try await Self.waitForCache(temp.path, after: firstLook)
            #expect(written != nil)
        }
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(FileManager.default.fileExists(atPath: inProgress))
    }
}
