import Dispatch
import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// An observation lives until its token (or its async iteration, or its `LiveResults`)
/// goes, whatever happens to the `JSONStore` value that started it.
@Suite("Observation lifetime")
struct ObservationLifetimeTests {
    /// A directory with items a, b, c, and its path; no `JSONStore` value kept.
    static func directory() throws -> (TemporaryStore, String) {
        let temp = try TemporaryStore()
        for id in ["a", "b", "c"] { try temp.writeFile("\(id).json", "{\"title\": \"\(id)\"}") }
        return (temp, temp.path)
    }

    /// Waits until `condition` holds, checking every few milliseconds, up to `timeout`.
    ///
    /// Four minutes: a `for await` loop and this check both run on the cooperative pool
    /// (two threads here), behind every test the parallel suite has queued there. A
    /// three-item store's initial event reached its loop 45-60 s after the test began in
    /// the plain runs, and over 60 s under ThreadSanitizer, where 60 s ran out twice.
    static func eventually(timeout: Double = 240, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = DispatchTime.now() + timeout
        while DispatchTime.now() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    /// `eventually` for main-actor state.
    @MainActor
    static func eventually(timeout: Double = 240, onMain condition: @MainActor () -> Bool) async
        -> Bool
    {
        let deadline = DispatchTime.now() + timeout
        while DispatchTime.now() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test("releasing the JSONStore value stops nothing; the token keeps the pipeline")
    func storeReleased() async throws {
        let (temp, path) = try Self.directory()
        let recorder = ChangeRecorder()
        var store: JSONStore? = try JSONStore(directory: path)
        let token = store!.observe(on: DispatchQueue(label: "lifetime"), recorder.callback)
        #expect(await recorder.wait { $0.initialCount == 1 })
        store = nil
        try temp.writeFile("d.json", "{\"title\": \"d\"}")
        #expect(await recorder.wait { $0.ids == ["a", "b", "c", "d"] })
        token.invalidate()
        #expect(token.isInvalidated)
    }

    @Test("the pipeline stops when the last observation ends, and starts again for a new one")
    func idleAndRestart() async throws {
        let (temp, path) = try Self.directory()
        let store = try JSONStore(directory: path)
        let first = ChangeRecorder()
        let token = store.observe(on: DispatchQueue(label: "first"), first.callback)
        #expect(await first.wait { $0.initialCount == 1 })
        #expect(store.state == .live)
        token.invalidate()
        #expect(await Self.eventually { store.state == .loading(done: 0, total: 0) })

        // Changed while nobody watched: a new observation starts from the directory.
        try temp.writeFile("e.json", "{\"title\": \"e\"}")
        #expect(unlink(path + "/a.json") == 0)
        let second = ChangeRecorder()
        let again = store.observe(on: DispatchQueue(label: "second"), second.callback)
        #expect(await second.wait { $0.initialCount == 1 })
        #expect(second.current.ids == ["b", "c", "e"])
        try temp.writeFile("f.json", "{\"title\": \"f\"}")
        #expect(await second.wait { $0.ids == ["b", "c", "e", "f"] })
        #expect(first.current.updates.isEmpty)
        again.invalidate()
    }

    @Test("a for-await loop that breaks ends the observation")
    func asyncBreak() async throws {
        let (temp, path) = try Self.directory()
        let store = try JSONStore(directory: path)
        var ids: [String] = []
        for await change in store.changes() {
            if case .initial(let results) = change { ids = results.map(\.id) }
            break
        }
        #expect(ids == ["a", "b", "c"])
        #expect(await Self.eventually { store.state == .loading(done: 0, total: 0) })
        withExtendedLifetime(temp) {}
    }

    @Test(
        "a task cancelled in the middle of a for-await loop: the loop exits, nothing more arrives")
    func asyncCancelled() async throws {
        let (temp, path) = try Self.directory()
        let seen = Locked<[Int]>([])
        let task = Task {
            // The JSONStore value lives only in here; the sequence keeps the pipeline.
            for await change in try JSONStore(directory: path).changes() {
                if case .update(let results, _) = change {
                    seen.withLock { $0.append(results.count) }
                }
                if case .initial = change { seen.withLock { $0.append(-1) } }
            }
            return "finished"
        }
        #expect(await Self.eventually { seen.withLock { $0 } == [-1] })
        try temp.writeFile("d.json", "{}")
        #expect(await Self.eventually { seen.withLock { $0 } == [-1, 4] })
        task.cancel()
        #expect(try await task.value == "finished")
        try temp.writeFile("e.json", "{}")
        try await Task.sleep(for: .milliseconds(200))  // room for a wrong delivery to show
        #expect(seen.withLock { $0 } == [-1, 4])
    }

    @Test("a slow async consumer gets one merged update, not a queue")
    func asyncSlowConsumer() async throws {
        let (temp, path) = try Self.directory()
        let store = try JSONStore(directory: path)
        var iterator = store.changes(Todo.self).makeAsyncIterator()
        guard case .initial(let initial)? = await iterator.next() else {
            Issue.record("no .initial")
            return
        }
        #expect(initial.isEmpty)  // no item decodes as Todo yet
        #expect(initial.invalid.count == 3)
        for n in 0..<40 {
            try store.put(
                "t\(n)", ["title": "T", "status": "todo", "priority": .number(JSONNumber(n))])
        }
        await store.synchronize()
        var received = 0
        var results = initial
        while results.count < 40 {
            guard case .update(let next, _)? = await iterator.next() else { break }
            received += 1
            results = next
        }
        #expect(results.count == 40)
        #expect(received <= 2, "\(received) updates for 40 puts made while the consumer was away")
        withExtendedLifetime(temp) {}
    }

    @Test("a typed LiveResults on the main actor follows the store")
    @MainActor
    func liveResults() async throws {
        let (temp, path) = try Self.directory()
        try temp.writeFile("a.json", "{\"title\": \"A\", \"status\": \"todo\", \"priority\": 1}")
        let live = LiveResults(
            store: try JSONStore(directory: path), query: Query.all.sorted(by: \Todo.priority),
            as: Todo.self)
        #expect(await Self.eventually(onMain: { live.isLoaded }))
        #expect(live.results.map(\.id) == ["a"])
        #expect(live.results.invalid.map(\.name) == ["b.json", "c.json"])
        try temp.writeFile("b.json", "{\"title\": \"B\", \"status\": \"todo\", \"priority\": 0}")
        #expect(await Self.eventually(onMain: { live.results.map(\.id) == ["b", "a"] }))
        #expect(live.lastChange?.resolved == ["b.json"])
        live.stop()
    }
}
