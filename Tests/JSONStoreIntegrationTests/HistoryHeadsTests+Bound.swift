import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

/// A look at the whole store binds the heads to its snapshot (8 bytes an item, not 56);
/// kept past the look, they must not keep that snapshot, and the items' bytes it holds,
/// from going.
extension HistoryHeadsTests {
    /// Whether the heads of `store` are bound to a snapshot, once they are not (20 s at
    /// most; `true` then).
    static func bound(_ store: JSONStore) async throws -> Bool {
        try await blocking {
            let deadline = Date().addingTimeInterval(20)
            var bound = true
            while Date() < deadline {
                bound = (try? store.history?.withHeads { $0.isBound }) ?? true
                if !bound { break }
                usleep(10_000)
            }
            return bound
        }
    }

    @Test(
        "heads kept past the first look let its snapshot go: stamped, cached, or stopped",
        arguments: [(true, false), (false, false), (true, true)])
    func snapshotLetGo(keepsStartCache: Bool, stopAtOnce: Bool) async throws {
        var options = JSONStore.Options()
        options.keepsStartCache = keepsStartCache
        let ids = (0..<10).map { "item-\($0)" }
        let f = try LiveFixture(ids: ids, options: options)
        #expect(await f.started())
        // Stopped as soon as its first results came, the recorder may not have stamped
        // them, nor a cache been written: the heads go unbound all the same.
        if stopAtOnce { f.token?.invalidate() }
        let found = try await HistoryWatchTests.waitForJournal(f.store) { $0.count == 10 }
        #expect(found.allSatisfy { $0.isLate && $0.kind == .created })
        #expect(try await Self.bound(f.store) == false)
        // Ten are fewer than the heads kept: every one is known still.
        let store = f.store
        let known = try await blocking { try store.history?.withHeads { $0.count } }
        #expect(known == 10)
    }
}
