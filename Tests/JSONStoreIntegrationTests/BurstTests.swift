import Dispatch
import Foundation
import Glibc
import TestSupport
import Testing

@_spi(Testing) @testable import JSONStore

/// Whether the observed results show exactly what a fresh load of the directory finds:
/// valid items with their values, invalid files by name (an invalid file's item keeps its
/// last valid value, flagged).
func matchesDirectory(_ results: Results<Item>, _ store: JSONStore) throws -> Bool {
    let contents = try store.load()
    let invalidNames = Set(contents.invalid.map(\.name))
    guard Set(results.invalid.map(\.name)) == invalidNames else { return false }
    var valid: [String: Item] = [:]
    for item in contents.items { valid[item.id] = item }
    var seen = 0
    for item in results {
        if results.error(for: item.id) != nil {
            guard invalidNames.contains(item.fileName) else { return false }
        } else {
            guard valid[item.id]?.object == item.object else { return false }
            seen += 1
        }
    }
    return seen == valid.count
}

@Suite("Bursts, overflow and random edits")
struct BurstTests {
    @Test(
        "40,000 files created while the reader is stalled: overflow, resync, equal to the directory",
        .timeLimit(.minutes(5)))
    func overflow() async throws {
        // Failsafes, not expectations: under ThreadSanitizer beside the whole filter it took
        // 151-251 s where it takes 70-90 s in the plain runs.
        let f = try LiveFixture()
        #expect(await f.started())
        let states = StateRecorder(f.store)
        f.store.setWatcherSuspended(true)
        let temp = f.temp
        try await blocking {
            for i in 0..<40_000 { try temp.writeFile("n\(i).json", "{\"n\": \(i)}") }
        }
        f.store.setWatcherSuspended(false)
        #expect(await f.recorder.wait(timeout: 240) { $0.ids.count == 40_003 })
        await f.store.synchronize()
        #expect(try matchesDirectory(f.recorder.current.results, f.store))
        #expect(states.states.contains(.resyncing(reason: "inotify queue overflow")))
        #expect(f.store.state == .live)
        #expect(f.recorder.current.violations == [])
        states.stop()
    }

    @Test(
        "git checkout between branches that change 2,000 files: one update",
        .enabled(if: Tool.exists("git")), .timeLimit(.minutes(3)))
    func gitCheckout() async throws {
        // Publications wait for git 10 s at most; a checkout slower than that (under
        // ThreadSanitizer, on a loaded machine) is cut there by design. The property held
        // here is one update while git holds its lock, so the limit is set beyond the test.
        var options = JSONStore.Options()
        options.gitHoldLimit = 120
        let temp = try TemporaryStore(options: options)
        let git = { (arguments: [String]) async throws -> Int32 in
            try await Tool.run(
                "git", ["-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments,
                in: temp.path)
        }
        #expect(try await git(["init", "-q", "-b", "one"]) == 0)
        for i in 0..<2_000 {
            try temp.writeFile("t\(i).json", "{\n  \"n\": \(i),\n  \"branch\": \"one\"\n}\n")
        }
        #expect(try await git(["add", "-A"]) == 0)
        #expect(try await git(["commit", "-q", "-m", "one"]) == 0)
        #expect(try await git(["checkout", "-q", "-b", "two"]) == 0)
        for i in 0..<1_000 {
            try temp.writeFile("t\(i).json", "{\n  \"n\": \(i),\n  \"branch\": \"two\"\n}\n")
        }
        for i in 1_000..<1_500 { unlink(temp.path + "/t\(i).json") }
        for i in 2_000..<2_500 { try temp.writeFile("t\(i).json", "{\n  \"n\": \(i)\n}\n") }
        #expect(try await git(["add", "-A"]) == 0)
        #expect(try await git(["commit", "-q", "-m", "two"]) == 0)
        #expect(try await git(["checkout", "-q", "one"]) == 0)

        let recorder = ChangeRecorder()
        let token = temp.store.observe(on: DispatchQueue(label: "o"), recorder.callback)
        #expect(await recorder.wait { $0.ids.count == 2_000 })
        #expect(try await git(["checkout", "-q", "two"]) == 0)
        await temp.store.synchronize()
        let state = recorder.current
        #expect(state.ids.count == 2_000)
        #expect(try matchesDirectory(state.results, temp.store))
        let changes = state.updates.reduce(0) {
            $0 + $1.insertions.count + $1.deletions.count + $1.modifications.count
        }
        #expect(changes == 2_000)  // 1,000 modified, 500 deleted, 500 added
        // One update: publications wait while git holds its index lock, so however slowly
        // git writes on a loaded machine, a file it removes and writes anew is never a
        // deletion in one update and an insertion in the next (which once counted 2,001).
        #expect(
            state.updates.count == 1,
            "\(state.updates.count) updates for one checkout: \(state.updates.map { "d\($0.deletions.count) i\($0.insertions.count) m\($0.modifications.count)" }) at \(state.updateTimes.map { $0.uptimeNanoseconds / 1_000_000 })"
        )
        #expect(state.violations == [])
        token.invalidate()
    }

    @Test(
        "thousands of random batches: every update applies, and at rest the observer equals the directory",
        .timeLimit(.minutes(5)))
    func randomBatches() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(seed: seed)
        var options = JSONStore.Options()
        options.deletionGracePeriod = 0.01  // many small updates, not a few large ones
        options.unclosedFileDelay = 0.02
        let temp = try TemporaryStore(options: options)
        let all = ChangeRecorder()
        let ranked = ChangeRecorder(sortField: "rank")
        let tokens = [
            temp.store.observe(on: DispatchQueue(label: "all"), all.callback),
            temp.store.observe(
                Query.all.filter { ($0["rank"]?.intValue ?? 1) % 2 == 0 }.sorted(by: "rank"),
                on: DispatchQueue(label: "ranked"), ranked.callback),
        ]
        #expect(await all.wait { $0.initialCount == 1 })
        #expect(await ranked.wait { $0.initialCount == 1 })
        let ids = (0..<40).map { "k\($0)" }
        func content() -> String {
            "{\n  \"rank\": \(Int.random(in: 0..<10, using: &random)),\n  \"v\": \(Int.random(in: 0..<1000, using: &random))\n}\n"
        }
        for batch in 0..<2_000 {
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let id = ids.randomElement(using: &random)!
                let path = temp.path + "/" + id + ".json"
                switch Int.random(in: 0..<8, using: &random) {
                case 0, 1:  // create or rewrite in place
                    try temp.writeFile(id + ".json", content())
                case 2:  // write a temp file, rename it over the item
                    try temp.writeFile(".tmp-" + id, content())
                    rename(temp.path + "/.tmp-" + id, path)
                case 3:  // mv to another id
                    rename(path, temp.path + "/" + ids.randomElement(using: &random)! + ".json")
                case 4:  // rm
                    unlink(path)
                case 5:  // an invalid write
                    try temp.writeFile(
                        id + ".json",
                        ["{", "[]", "{\"rank\": }", ""].randomElement(using: &random)!)
                case 6:  // touch
                    utimes(path, nil)
                default:  // a library write
                    try temp.store.put(
                        id, ["rank": .number(JSONNumber(Int.random(in: 0..<10, using: &random)))])
                }
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                await temp.store.synchronize()  // let this batch out as an update of its own
            }
            if batch % 400 == 399 || batch == 1_999 {
                await temp.store.synchronize()
                #expect(
                    try matchesDirectory(all.current.results, temp.store),
                    "seed \(seed), batch \(batch)")
            }
        }
        #expect(all.current.violations == [], "seed \(seed)")
        #expect(ranked.current.violations == [], "seed \(seed)")
        #expect(all.current.updates.count > 300, "\(all.current.updates.count) updates")
        // The filtered, sorted results hold exactly the matching items of the full results.
        let expected = all.current.results.filter { ($0["rank"]?.intValue ?? 1) % 2 == 0 }.map(\.id)
        #expect(Set(ranked.current.ids) == Set(expected), "seed \(seed)")
        for token in tokens { token.invalidate() }
    }
}
