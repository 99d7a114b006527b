import Dispatch
import Glibc
import JSONStore
import TestSupport
import Testing

/// The polling backend looks at alternate halves of the entries on idle polls and lists
/// the names again only when the directory changed: every kind of edit must still be seen.
@Suite("Polling")
struct PollingTests {
    static let ids = (0..<12).map { "p\($0)" }

    func fixture() throws -> LiveFixture {
        var options = JSONStore.Options()
        options.watchMode = .polling(interval: 0.05)
        return try LiveFixture(ids: Self.ids, options: options)
    }

    @Test(
        "a rewrite in place that keeps the size and the modification time is seen, in either half")
    func sameSizeSameTime() async throws {
        let f = try fixture()
        #expect(await f.started())
        for (n, id) in Self.ids.enumerated() {
            var before = stat()
            stat(f.file("\(id).json"), &before)
            // Same length as the original ("rank": n → "rank": m with as many digits).
            let rank = n < 10 ? (n + 1) % 10 : n + 1
            f.writeInPlace("\(id).json", "{\n  \"title\": \"\(id)\",\n  \"rank\": \(rank)\n}\n")
            var times = [before.st_atim, before.st_mtim]
            utimensat(AT_FDCWD, f.file("\(id).json"), &times, 0)
            var after = stat()
            stat(f.file("\(id).json"), &after)
            #expect(after.st_size == before.st_size)
            #expect(
                after.st_mtim.tv_sec == before.st_mtim.tv_sec
                    && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        }
        let changed = await f.recorder.wait { state in
            state.results.allSatisfy { item in
                item["rank"]?.intValue != Self.ids.firstIndex(of: item.id)
            }
        }
        #expect(changed)
        #expect(f.recorder.current.violations == [])
    }

    @Test("names that come, go and move are seen, and synchronize() sees every entry at once")
    func namesComeAndGo() async throws {
        let f = try fixture()
        #expect(await f.started())
        unlink(f.file("p3.json"))
        rename(f.file("p4.json"), f.file("q4.json"))
        f.writeInPlace("new.json", "{\"title\": \"new\"}")
        #expect(
            await f.recorder.wait {
                Set($0.ids) == Set(Self.ids + ["new", "q4"]).subtracting(["p3", "p4"])
            })
        // A library write is seen by synchronize(), whichever half its entry is in.
        for id in ["p0", "p1"] { try f.store.put(id, ["title": .string("put \(id)")]) }
        await f.store.synchronize()
        #expect(
            f.recorder.current.results.filter { $0["title"]?.stringValue?.hasPrefix("put") == true }
                .count == 2)
        #expect(f.recorder.current.violations == [])
    }
}
