import Dispatch
import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

extension StartCacheLiveTests {
    @Test("a cache changed in place after its check: the start uses none of it, reads every file")
    func changedAfterCheck() async throws {
        // The cache says item 7 is something its file is not, under the file's own
        // signature: a start that trusts the cache shows it (`trustedWhenUnchanged`).
        let temp = try await Self.storeWithFalseCache()
        let path = temp.path
        let changed = Locked(false)
        var options = JSONStore.Options()
        // Once the start has checked the cache, another record of it is changed in the
        // file: the walk beside the listing reads it, and its checksum no longer holds.
        options.startCacheChecked = {
            guard let dir = try? FileDescriptor.openDirectory(path) else { return }
            defer { dir.close() }
            let file = ".jsonstore/" + StartCache.fileName
            guard let directory = StartCache.directory(of: dir),
                let bytes = try? PrivateFolder(store: path).read(StartCache.fileName),
                let sections = try? StartCache.Sections(.memory(bytes), for: directory, terms: nil),
                let fd = try? FileDescriptor.open(file, relativeTo: dir, flags: O_RDWR)
            else { return }
            defer { fd.close() }
            var inode = UInt64(7).littleEndian
            let at = sections.records + 30 * StartCache.Layout.record + StartCache.Layout.inode
            changed.withLock { $0 = pwrite(fd.rawValue, &inode, 8, off_t(at)) == 8 }
        }
        let (results, plan) = try await Self.firstResults(path, options: options)
        #expect(changed.withLock { $0 }, "the cache was changed after its check")
        #expect(results[results.index(ofID: "item-07")!]["title"] == "item 7")
        #expect(!plan.fromCache && plan.taken == 0)
        try Self.expectFullRead(results, path)
    }

    @Test("no file is looked at before the watcher starts: an edit just before it is seen")
    func lookedAtOnceWatched() async throws {
        let temp = try await Self.storeWithCache()
        let path = temp.path
        let edited = Locked(false)
        var options = JSONStore.Options()
        // The cache is being read; the watcher is not set up yet. Had its files been
        // looked at already, this edit would be in neither the look nor the watcher.
        options.startCacheBegun = { finished in
            #expect(!finished(0.3), "the cache's files were looked at before the watcher")
            let file = path + "/item-05.json"
            edited.withLock {
                $0 = FileManager.default.createFile(
                    atPath: file, contents: Data("{\"title\": \"edited at the start\"}\n".utf8))
            }
        }
        let (results, plan) = try await Self.firstResults(path, options: options)
        #expect(edited.withLock { $0 })
        #expect(results[results.index(ofID: "item-05")!]["title"] == "edited at the start")
        #expect(plan.read >= 1 && plan.taken == Self.count - plan.read)
    }
}
