import Dispatch
import Foundation
import TestSupport
import Testing

@testable import JSONStore

extension StartCacheLiveTests {
    /// When the cache file at `path` was last written.
    static func cacheWritten(_ path: String) throws -> Date {
        let attributes = try FileManager.default.attributesOfItem(
            atPath: path + "/.jsonstore/" + StartCache.fileName)
        return try #require(attributes[.modificationDate] as? Date)
    }

    @Test("after a start from the cache, the cache it writes waits a second, then comes")
    func writtenAfterStart() async throws {
        let temp = try await Self.storeWithCache()
        let before = try #require(Self.readCache(temp.path))
        try temp.writeFile("item-01.json", "{\"title\": \"changed while stopped\"}\n")
        let path = temp.path
        let began = Date()
        _ = try await Self.firstResults(path) { _ in
            let again = try await Self.waitForCache(path, after: before.lookedAt)
            #expect(again?.entry("item-01")?.signature.size == 35)
            // Not while the start's first results go out: a second after it began at
            // least (the file system's clock may lag this one's by a tick).
            let written = try Self.cacheWritten(path)
            #expect(written.timeIntervalSince(began) > 0.9)
        }
    }

    @Test("a store observed again writes the cache of its new start, however soon")
    func writtenByEachObservation() async throws {
        // The first observation wrote a cache and ended; the same store value observed
        // again loads anew, and its cache is not held back by the last one's.
        let temp = try await Self.storeWithCache()
        let before = try #require(Self.readCache(temp.path))
        try temp.writeFile("item-05.json", "{\"title\": \"changed between two\"}\n")
        let recorder = ChangeRecorder()
        let token = temp.store.observe(.all, on: DispatchQueue(label: "again"), recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        let again = try await Self.waitForCache(temp.path, after: before.lookedAt)
        #expect(again?.entry("item-05")?.signature.size == 33)
    }
}
