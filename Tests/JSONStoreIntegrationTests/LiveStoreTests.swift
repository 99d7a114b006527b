import Dispatch
import Foundation
import Glibc
import JSONStore
import Observation
import Synchronization
import TestSupport
import Testing

@Suite("Live store")
struct LiveStoreTests {
    @Test("a file that becomes invalid keeps its last value, flagged; fixing it is a modification")
    func invalidKeepsLastValue() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        f.writeInPlace("b.json", "{\n  \"title\": \"broken\",\n  \"rank\": \n}\n")
        var updates = await f.settledUpdates()
        #expect(updates.count == 1)
        #expect(updates.first?.modifications == [1])
        #expect(updates.first?.invalid.map(\.name) == ["b.json"])
        let error = try #require(updates.first?.invalid.first?.error)
        #expect(error.code == .invalidJSON)
        #expect((error.line, error.column) == (4, 1))
        var results = f.recorder.current.results
        #expect(results.map(\.id) == ["a", "b", "c"])
        #expect(results[1]["title"] == "b")  // the last valid value
        #expect(results.error(for: "b")?.line == 4)
        #expect(results.invalid.map(\.name) == ["b.json"])

        f.writeInPlace("b.json", "{\n  \"title\": \"fixed\",\n  \"rank\": 1\n}\n")
        updates = await f.settledUpdates()
        #expect(updates.count == 2)
        #expect(updates.last?.modified.first?.new["title"] == "fixed")
        #expect(updates.last?.resolved == ["b.json"])
        results = f.recorder.current.results
        #expect(results.error(for: "b") == nil)
        #expect(results.invalid.isEmpty)
        #expect(f.recorder.current.violations == [])
    }

    @Test("a new invalid file and a bad file name are reported, not inserted")
    func newInvalidFiles() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        f.writeInPlace("new.json", "[1, 2]")
        f.writeInPlace("bad\u{1B}name.json", "{}")
        #expect(await f.recorder.wait { $0.results.invalid.count == 2 })
        let updates = await f.settledUpdates()
        #expect(updates.allSatisfy { $0.insertions.isEmpty })
        #expect(Set(updates.flatMap(\.invalid).map(\.name)) == ["new.json", "bad\u{1B}name.json"])
        unlink(f.file("new.json"))
        unlink(f.file("bad\u{1B}name.json"))
        #expect(await f.recorder.wait { $0.results.invalid.isEmpty })
        #expect(
            Set(f.recorder.current.updates.flatMap(\.resolved)) == [
                "new.json", "bad\u{1B}name.json",
            ])
    }

    @Test("a file name that is not UTF-8 is reported, and resolved when it goes")
    func undecodableName() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        let path = Array(f.file("bad").utf8) + [0xFF] + Array("name.json".utf8) + [0]
        let fd = path.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) {
                open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644)
            }
        }
        #expect(fd >= 0)
        close(fd)
        #expect(
            await f.recorder.wait { $0.results.invalid.map(\.name) == [#"bad\xffname.json"#] })
        #expect(
            path.withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { unlink($0.baseAddress!) }
            } == 0)
        #expect(await f.recorder.wait { $0.results.invalid.isEmpty })
        #expect(f.recorder.current.updates.last?.resolved == [#"bad\xffname.json"#])
    }

    @Test("writes through the library are delivered, and synchronize() gives read-your-writes")
    func readYourWrites() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        try f.store.put("d", ["title": "D"])
        await f.store.synchronize()
        #expect(f.recorder.current.ids == ["a", "b", "c", "d"])
        try f.store.write { tx in
            try tx.delete("a")
            try tx.update("b") { $0["title"] = "B!" }
        }
        await f.store.synchronize()
        #expect(f.recorder.current.ids == ["b", "c", "d"])
        #expect(f.recorder.current.results[0]["title"] == "B!")
        #expect(f.recorder.current.updates.count == 2)
    }

    @Test("filtered and sorted queries: moves, filter entry and exit")
    func filteredSorted() async throws {
        let recorder = ChangeRecorder(sortField: "rank", descending: true)
        let query = Query.all.filter { ($0["rank"]?.intValue ?? -1) >= 0 }.sorted(
            by: "rank", descending: true)
        let f = try LiveFixture(ids: ["a", "b", "c", "d"], query: query, recorder: recorder)
        #expect(await f.started())
        #expect(recorder.current.ids == ["d", "c", "b", "a"])
        try f.store.update("a") { $0["rank"] = 10 }  // moves to the top
        await f.store.synchronize()
        var update = try #require(recorder.current.updates.last)
        #expect(update.deletions == [3] && update.insertions == [0])
        #expect(update.moves.map { [$0.from, $0.to] } == [[3, 0]])
        try f.store.update("c") { $0["rank"] = -5 }  // leaves the filter
        await f.store.synchronize()
        update = try #require(recorder.current.updates.last)
        #expect(update.deletions == [2] && update.insertions.isEmpty && update.moves.isEmpty)
        try f.store.update("b") { $0["note"] = "x" }  // same place: a modification
        await f.store.synchronize()
        update = try #require(recorder.current.updates.last)
        #expect(update.modifications == [2] && update.modificationsNew == [2])
        #expect(recorder.current.ids == ["a", "d", "b"])
        #expect(recorder.current.violations == [])
    }

    @Test("nothing is delivered after invalidate() or after the token is released")
    func nothingAfterCancel() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        f.token?.invalidate()
        try f.store.put("d", ["title": "D"])
        await f.store.synchronize()

        let released = ChangeRecorder()
        var token: ObservationToken? = f.store.observe(
            on: DispatchQueue(label: "r"), released.callback)
        #expect(await released.wait { $0.initialCount == 1 })
        #expect(token?.isInvalidated == false)
        token = nil
        try f.store.put("e", ["title": "E"])
        try f.store.put("a", ["title": "A2"])
        await f.store.synchronize()

        // A third observer proves the edits were delivered to whoever still listens.
        let live = ChangeRecorder()
        let liveToken = f.store.observe(on: DispatchQueue(label: "l"), live.callback)
        #expect(await live.wait { $0.ids == ["a", "b", "c", "d", "e"] })
        #expect(f.recorder.current.updates.isEmpty)
        #expect(released.current.updates.isEmpty)
        liveToken.invalidate()
    }

    @Test("callbacks run on the chosen queue, in order, never two at once")
    func deliveryQueue() async throws {
        let target = DispatchQueue(label: "concurrent target", attributes: .concurrent)
        let key = DispatchSpecificKey<Int>()
        target.setSpecific(key: key, value: 42)
        let wrongQueue = Atomic<Int>(0)
        let recorder = ChangeRecorder()
        let temp = try TemporaryStore()
        let token = temp.store.observe(on: target) { change in
            if DispatchQueue.getSpecific(key: key) != 42 { wrongQueue.add(1, ordering: .relaxed) }
            recorder.record(change)
        }
        #expect(await recorder.wait { $0.initialCount == 1 })
        for i in 0..<200 { try temp.store.put("item-\(i % 20)", ["n": .number(JSONNumber(i))]) }
        await temp.store.synchronize()
        let state = recorder.current
        #expect(state.ids.count == 20)
        #expect(state.overlaps == 0)
        #expect(state.violations == [])
        #expect(wrongQueue.load(ordering: .relaxed) == 0)
        #expect(state.results[0]["n"]?.intValue == 180)
        token.invalidate()
    }

    @Test("a subscriber whose queue is stuck holds up no one else; it catches up in order")
    func stuckSubscriber() async throws {
        let temp = try TemporaryStore()
        let stuckQueue = DispatchQueue(label: "stuck")
        let stuck = ChangeRecorder()
        let other = ChangeRecorder()
        let tokens = [
            temp.store.observe(on: stuckQueue, stuck.callback),
            temp.store.observe(on: DispatchQueue(label: "other"), other.callback),
        ]
        #expect(await stuck.wait { $0.initialCount == 1 })
        #expect(await other.wait { $0.initialCount == 1 })
        let release = DispatchSemaphore(value: 0)
        stuckQueue.async { release.wait() }
        for i in 0..<5 { try temp.store.put("i\(i)", ["n": .number(JSONNumber(i))]) }
        #expect(await other.wait { $0.ids.count == 5 })
        #expect(stuck.current.ids.isEmpty)
        release.signal()
        #expect(await stuck.wait { $0.ids.count == 5 })
        #expect(stuck.current.violations == [] && other.current.violations == [])
        for token in tokens { token.invalidate() }
    }

    @Test("callbacks run on the main actor when asked")
    @MainActor
    func mainActorDelivery() async throws {
        let temp = try TemporaryStore()
        let recorder = ChangeRecorder()
        let token = temp.store.observe { change in
            MainActor.assertIsolated()
            recorder.record(change)
        }
        #expect(await recorder.wait { $0.initialCount == 1 })
        try temp.store.put("x", ["v": 1])
        await temp.store.synchronize()
        #expect(recorder.current.ids == ["x"])
        token.invalidate()
    }

    @Test("the AsyncSequence delivers .initial then updates; ending it stops observing")
    func asyncSequence() async throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["v": 1])
        var iterator = temp.store.changes().makeAsyncIterator()
        guard case .initial(let results)? = await iterator.next() else {
            Issue.record("the first element is not .initial")
            return
        }
        #expect(results.map(\.id) == ["a"])
        try temp.store.put("b", ["v": 2])
        guard case .update(let next, let changes)? = await iterator.next() else {
            Issue.record("the second element is not .update")
            return
        }
        #expect(next.map(\.id) == ["a", "b"])
        #expect(changes.insertions == [1])
    }

    @Test("an @Observable LiveResults updates on the main actor")
    @MainActor
    func observableResults() async throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["v": 1])
        let live = LiveResults(store: temp.store)
        let recorder = ChangeRecorder()
        let token = temp.store.observe(on: .main, recorder.callback)
        #expect(await recorder.wait { $0.initialCount == 1 })
        await temp.store.synchronize()
        #expect(live.isLoaded)
        #expect(live.results.map(\.id) == ["a"])
        #expect(live.state == .live)

        let changed = Atomic<Bool>(false)
        withObservationTracking {
            _ = live.results
        } onChange: {
            changed.store(true, ordering: .relaxed)
        }
        try temp.store.put("b", ["v": 2])
        await temp.store.synchronize()
        let didChange = changed.load(ordering: .relaxed)
        #expect(didChange)
        #expect(live.results.map(\.id) == ["a", "b"])
        #expect(live.lastChange?.insertions == [1])
        live.stop()
        token.invalidate()
    }

    /// Removes the directory `path` as `rm -rf` does, again when a file appears in it
    /// while it is removed (the follower's background writes in `.jsonstore`, racing the
    /// removal); 5 s at most.
    static func removeTree(_ path: String) throws {
        let deadline = Date().addingTimeInterval(5)
        while true {
            do {
                return try FileManager.default.removeItem(atPath: path)
            } catch {
                guard FileManager.default.fileExists(atPath: path), Date() < deadline else {
                    throw error
                }
                usleep(10_000)
            }
        }
    }

    @Test("the directory removed or moved away: .error and failed; it comes back: resync and live")
    func directoryRemovedAndBack() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        let states = StateRecorder(f.store)
        try Self.removeTree(f.path)
        #expect(await f.recorder.wait { $0.errors.count == 1 })
        #expect(f.recorder.current.errors.first?.code == .storeUnavailable)
        #expect(f.recorder.current.errors.first?.description.contains("removed") == true)
        #expect(f.store.state.name == "failed")

        try FileManager.default.createDirectory(atPath: f.path, withIntermediateDirectories: false)
        try "{\"title\": \"z\"}".write(toFile: f.file("z.json"), atomically: false, encoding: .utf8)
        #expect(await f.recorder.wait { $0.ids == ["z"] })
        #expect(await f.recorder.wait { _ in f.store.state == .live })
        let names = states.states.map(\.name)
        #expect(names.contains("failed"))
        #expect(names.contains("resyncing"))
        #expect(names.last == "live")
        #expect(f.recorder.current.violations == [])

        // Moved away (IN_MOVE_SELF) is the same as removed; moved back, it is read again.
        let aside = f.path + ".aside"
        #expect(rename(f.path, aside) == 0)
        #expect(await f.recorder.wait { $0.errors.count == 2 })
        try "{\"title\": \"y\"}".write(
            toFile: aside + "/y.json", atomically: false, encoding: .utf8)
        #expect(rename(aside, f.path) == 0)
        #expect(await f.recorder.wait { $0.ids == ["y", "z"] })
        #expect(f.recorder.current.violations == [])
        states.stop()
    }

    @Test("the polling backend delivers the same changes")
    func polling() async throws {
        var options = JSONStore.Options()
        options.watchMode = .polling(interval: 0.05)
        let began = Date()
        let f = try LiveFixture(options: options)
        // 60 s each: in the full parallel suite on two cores (hundreds of tests in flight,
        // many of them running processes) this start has been seen to take 32 s.
        #expect(await f.started(timeout: 60))
        let started = Date()
        f.writeInPlace("b.json", SavePatternTests.newB)
        let delivered = await f.recorder.wait(timeout: 60) {
            $0.results.first { $0.id == "b" }?["title"] == "B2"
        }
        let seen = f.recorder.current
        #expect(
            delivered,
            """
            b's edit not delivered in 60 s (\(Date().timeIntervalSince(started)) s after the \
            start, which took \(started.timeIntervalSince(began)) s): \
            \(seen.updates.count) updates, \(seen.errors.count) errors, \
            invalid \(seen.results.invalid.map(\.name))
            """)
        #expect(seen.updates.count == 1)
        unlink(f.file("a.json"))
        f.writeInPlace("d.json", "{\"title\": \"d\"}")
        #expect(await f.recorder.wait(timeout: 60) { $0.ids == ["b", "c", "d"] })
        let updates = await f.settledUpdates()
        #expect(updates.first?.modified.map(\.new.id) == ["b"])
        #expect(Set(updates.flatMap(\.deleted).map(\.id)) == ["a"])
        #expect(f.recorder.current.violations == [])
    }

    @Test("loading reports progress, then live")
    func loadingProgress() async throws {
        let temp = try TemporaryStore()
        try await blocking {
            for i in 0..<20_000 { try temp.writeFile("i\(i).json", "{\"n\": \(i)}") }
        }
        let states = StateRecorder(temp.store)
        let recorder = ChangeRecorder()
        let token = temp.store.observe(on: DispatchQueue(label: "o"), recorder.callback)
        // 20,000 files, enough for several progress reports: under ThreadSanitizer on a
        // busy machine their load has taken over 20 s, the default wait.
        #expect(await recorder.wait(timeout: 180) { $0.initialCount == 1 })
        #expect(await recorder.wait(timeout: 60) { _ in states.states.last == .live })
        let seen = states.states
        #expect(seen.first?.name == "loading")
        #expect(seen.contains(.loading(done: 0, total: 20_000)))
        let progress = seen.compactMap { state -> Int? in
            if case .loading(let done, _) = state { return done }
            return nil
        }
        #expect(progress == progress.sorted())
        // Once seen under a loaded ThreadSanitizer run, 19,999: say which and why.
        let current = recorder.current
        let missing = Set((0..<20_000).map { "i\($0)" }).subtracting(current.ids)
        #expect(
            current.ids.count == 20_000,
            "missing \(missing.sorted()); invalid: \(current.results.invalid.map(\.description))")
        token.invalidate()
        states.stop()
    }
}
