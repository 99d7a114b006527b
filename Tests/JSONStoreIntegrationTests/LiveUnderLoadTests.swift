import Dispatch
import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// The pipeline stays live while writes keep coming, and a subscriber that falls behind
/// gets one merged update instead of a queue that grows with every edit.
@Suite("Live under load")
struct LiveUnderLoadTests {
    /// What a fresh read of the directory holds: ids and objects, sorted by id.
    static func onDisk(_ store: JSONStore) throws -> [String: JSONObject] {
        Dictionary(uniqueKeysWithValues: try store.load().items.map { ($0.id, $0.object) })
    }

    @Test("4 writer processes: an update at least every 100 ms, then exact convergence",
          .timeLimit(.minutes(3)))
    func steadyWriters() async throws {
        let ids = (0..<2000).map { "item-\($0)" }
        let f = try LiveFixture(ids: ids)
        #expect(await f.started())
        let path = f.path
        let seconds = 3.0
        let started = DispatchTime.now()
        let outputs = try await blocking {
            let workers = try (0..<4).map { k in
                try HelperProcess.start(["churn", path, String(k + 1), String(seconds), "2000", String(k), "4"])
            }
            return workers.map { process, pipe in
                let output = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return String(decoding: output, as: UTF8.self)
            }
        }
        let stopped = DispatchTime.now()
        let edits = outputs.compactMap { Int($0.dropFirst(5).prefix { $0.isNumber }) }
        #expect(edits.count == 4, "workers said \(outputs)")

        // The gaps between updates while the writers ran (after a moment to get going).
        let from = started + 0.3
        let times = f.recorder.current.updateTimes.filter { $0 >= from && $0 <= stopped }
        let gaps = zip(times.dropFirst(), times).map {
            Double($0.uptimeNanoseconds - $1.uptimeNanoseconds) / 1e9
        }.sorted()
        #expect(times.count >= 10, "\(times.count) updates in \(seconds) s of \(edits) edits")
        let p99 = gaps.isEmpty ? .infinity : gaps[min(gaps.count - 1, gaps.count * 99 / 100)]
        #expect(p99 <= 0.25, "p99 gap \(p99) s over \(gaps.count) gaps")
        // No stretch without an update longer than that either, start and end included.
        let edges = [from] + times + [stopped]
        let longest = zip(edges.dropFirst(), edges).map {
            Double($0.uptimeNanoseconds - $1.uptimeNanoseconds) / 1e9
        }.max() ?? 0
        #expect(longest <= 0.5, "the longest stretch without an update was \(longest) s")

        // At rest the observer equals the directory, item by item.
        await f.store.synchronize()
        let state = f.recorder.current
        #expect(state.violations.isEmpty, "\(state.violations.prefix(3))")
        let expected = try Self.onDisk(f.store)
        #expect(state.ids == expected.keys.sorted())
        #expect(state.results.allSatisfy { expected[$0.id] == $0.object })
    }

    @Test("a stalled subscriber gets one merged update when it resumes, and converges",
          .timeLimit(.minutes(2)))
    func stalledSubscriber() async throws {
        let ids = (0..<200).map { "item-\($0)" }
        let f = try LiveFixture(ids: ids)
        let stalled = ChangeRecorder()
        let gate = DispatchSemaphore(value: 0)
        let armed = Locked(true)
        let token = f.store.observe(on: DispatchQueue(label: "test.stalled")) { change in
            if case .update = change, armed.withLock({ $0 }) { gate.wait() }
            stalled.record(change)
        }
        #expect(await f.started())
        #expect(await stalled.wait { $0.initialCount == 1 })

        // Steady writes, each its own batch: puts, rewrites and deletions.
        var random = SeededRandom(seed: 7)
        for round in 0..<300 {
            let id = ids.randomElement(using: &random)!
            if round % 5 == 4 {
                try f.store.delete(id)
            } else {
                try f.store.put(id, ["title": .string("\(id) round \(round)")])
            }
            if round % 30 == 29 { try await Task.sleep(for: .milliseconds(20)) }
        }
        let expected = try Self.onDisk(f.store)
        #expect(await f.recorder.wait { $0.ids == expected.keys.sorted() })
        #expect(f.recorder.current.updates.count > 10)
        // The stalled subscriber is still inside its first update.
        #expect(stalled.current.updates.isEmpty)

        armed.withLock { $0 = false }
        gate.signal()
        await f.store.synchronize()
        let state = stalled.current
        // The update it was stuck in, then everything since as one.
        #expect(state.updates.count == 2)
        #expect(state.violations.isEmpty, "\(state.violations.prefix(3))")
        #expect(state.ids == expected.keys.sorted())
        #expect(state.results.allSatisfy { expected[$0.id] == $0.object })
        token.invalidate()
    }
}
