import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// A one-shot look at every file (the history's catch-up before `log`, `diff`, `undo`)
/// takes the fingerprints of the files unchanged since a follower's start cache from it.
extension StartCacheLiveTests {
    /// The listing of the store at `path`, and the cache's fingerprints of its files.
    static func cachedFingerprints(_ path: String) throws -> ([String], [Fingerprint?]?) {
        let dir = try FileDescriptor.openDirectory(path)
        defer { dir.close() }
        let ids = try StoreListing(scanning: dir, path: path).ids
        return (ids, StartCache.unchangedFingerprints(of: ids, store: path, in: dir))
    }

    @Test("a one-shot look takes the files unchanged since the start cache from it, no other")
    func oneShotFromCache() async throws {
        let temp = try await Self.storeWithCache()
        let recorded = HistoryWatchTests.journal(temp.store).count
        try Self.editWhileStopped(temp)

        let (ids, found) = try Self.cachedFingerprints(temp.path)
        let cached = try #require(found)
        #expect(cached.count == ids.count)
        let read = Set(["item-01", "item-03", "item-04", "item-05", "item-99"])
        for (id, fingerprint) in zip(ids, cached) {
            if read.contains(id) {
                #expect(fingerprint == nil, "\(id)")
            } else {
                let bytes = try Array(
                    Data(contentsOf: URL(fileURLWithPath: temp.path + "/\(id).json")))
                #expect(fingerprint == Fingerprint(bytes), "\(id)")
            }
        }

        // A one-shot `log` records the edits as a follower's start does.
        let store = try JSONStore(directory: temp.path)
        _ = try store.history(limit: 1)
        let late = HistoryWatchTests.journal(store).dropFirst(recorded)
        Self.expectLateEdits(late)
        // Nothing more the next time: the journal holds every file as it is.
        _ = try store.history(limit: 1)
        #expect(HistoryWatchTests.journal(store).count == recorded + late.count)
    }

    @Test("past a block of ids, each file is taken by its own answer, not another's")
    func oneShotPastABlock() async throws {
        let temp = try TemporaryStore()
        let block = StoreHistory.idsPerAppend
        // Files k and block + k hold the same bytes.
        for k in 0..<(block + 100) {
            try temp.writeFile(String(format: "item-%05d.json", k), "{\"n\": \(k % block + 100)}\n")
        }
        try await Self.writeCache(temp, entries: block + 100)
        let recorded = HistoryWatchTests.journal(temp.store).count
        // In the second block, a rewrite at the same size with its times put back: only
        // its change time tells, and the file of the same bytes in the first block is
        // unchanged.
        let changed = String(format: "item-%05d", block + 50)
        try Self.rewriteKeepingTimes(temp, "\(changed).json", "{\"n\": 999}\n")

        let store = try JSONStore(directory: temp.path)
        _ = try store.history(limit: 1)
        let late = HistoryWatchTests.journal(store).dropFirst(recorded)
        #expect(late.map(\.id) == [changed])
        #expect(late.first?.changes == [MemberChange(path: "/n", old: 150, new: 999)])
    }

    @Test("a cache whose records are damaged gives nothing; the one-shot look reads every file")
    func oneShotDamagedCache() async throws {
        let temp = try await Self.storeWithCache()
        let recorded = HistoryWatchTests.journal(temp.store).count
        let folder = PrivateFolder(store: temp.path)
        var bytes = try #require(try folder.read(StartCache.fileName))
        let dir = try FileDescriptor.openDirectory(temp.path)
        let directory = try #require(StartCache.directory(of: dir))
        dir.close()
        let sections = try StartCache.Sections(.memory(bytes), for: directory, terms: nil)
        // A byte of the second record: the records' checksum no longer holds.
        bytes[sections.records + StartCache.Layout.record + 1] ^= 0x01
        try folder.replace(StartCache.fileName, with: bytes)
        try temp.writeFile("item-07.json", "{\"title\": \"seven\"}\n")

        #expect(try Self.cachedFingerprints(temp.path).1 == nil)
        let store = try JSONStore(directory: temp.path)
        _ = try store.history(limit: 1)
        let found = HistoryWatchTests.journal(store).dropFirst(recorded)
        #expect(found.map(\.id) == ["item-07"])
        #expect(Set(found.first?.changes.map(\.path) ?? []) == ["/title", "/n"])
    }
}
