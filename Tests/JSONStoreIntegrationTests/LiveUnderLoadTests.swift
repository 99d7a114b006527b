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

    @Test(
        "4 writer processes: updates keep coming while they write, then exact convergence",
        .timeLimit(.minutes(3)))
    func steadyWriters() async throws {
        let ids = (0..<2000).map { "item-\($0)" }
        let f = try LiveFixture(ids: ids)
        #expect(await f.started())
        let path = f.path
        let seconds = 5.0
        // Each worker's `ready` and `done N` lines, with the time each arrived.
        let lines = try await blocking {
            let workers = try (0..<4).map { k in
                try HelperProcess.start([
                    "churn", path, String(k + 1), String(seconds), "2000", String(k), "4",
                ])
            }
            let group = DispatchGroup()
            let lines = Locked<[[(DispatchTime, String)]]>(Array(repeating: [], count: 4))
            for (k, (process, pipe)) in workers.enumerated() {
                group.enter()
                Thread.detachNewThread {
                    for line in HelperProcess.lines(of: pipe) {
                        lines.withLock { $0[k].append((.now(), line)) }
                    }
                    process.waitUntilExit()
                    group.leave()
                }
            }
            group.wait()
            return lines.withLock { $0 }
        }
        let ready = lines.compactMap { $0.first { $0.1 == "ready" }?.0 }
        let done = lines.compactMap { $0.first { $0.1.hasPrefix("done ") }?.0 }
        let edits = lines.compactMap { $0.last.flatMap { Int($0.1.dropFirst(5)) } }
        #expect(
            ready.count == 4 && done.count == 4 && edits.count == 4,
            "workers said \(lines.map { $0.map(\.1) })")
        guard let allReady = ready.max(), let firstDone = done.min() else { return }

        // The gaps between updates while all four writers ran (after a moment to get going).
        let from = allReady + 0.3
        let times = f.recorder.current.updateTimes.filter { $0 >= from && $0 <= firstDone }
        let gaps = zip(times.dropFirst(), times).map {
            Double($0.uptimeNanoseconds - $1.uptimeNanoseconds) / 1e9
        }.sorted()
        // Before the fix there was no update at all while the writers ran: publications
        // waited for a quiet moment that never came. Updates keep coming, then, and no
        // stretch without one is more than half the time the writers ran (a third failed
        // once in 10 runs beside a CPU hog: a 0.98 s stall of 2.7 s). How soon
        // they come is a figure, not a property: the gap is about 250 ms on a quiet
        // machine, and grows with the load the rest of the suite puts beside it (two cores
        // shared with the four writers), so it is printed here and measured by
        // `scripts/bench` (the edit → observer latency), never asserted.
        // When they do not, when the updates came says where the pipeline was: behind (all
        // after the writers), or not at all.
        let window = Double(firstDone.uptimeNanoseconds - from.uptimeNanoseconds) / 1e9
        let all = f.recorder.current.updateTimes.map {
            (Double($0.uptimeNanoseconds) - Double(from.uptimeNanoseconds)) / 1e9
        }
        #expect(
            times.count >= 5,
            """
            \(times.count) updates while \(edits) edits were made; of all \(all.count) updates, \
            the first in seconds from the writers' start (they wrote for \(window) s): \
            \(all.prefix(20).map { ($0 * 100).rounded() / 100 })
            """)
        // Printed, never converted: with fewer than two updates there is no gap (a
        // conversion of infinity to Int once crashed the whole test process here).
        let p99 = gaps.isEmpty ? "none" : "\(Int(gaps[gaps.count * 99 / 100] * 1000)) ms"
        print("live under load: \(times.count) updates, p99 gap \(p99), \(edits) edits")
        let edges = [from] + times + [firstDone]
        let longest =
            zip(edges.dropFirst(), edges).map {
                Double($0.uptimeNanoseconds - $1.uptimeNanoseconds) / 1e9
            }.max() ?? 0
        #expect(
            longest <= window / 2,
            "the longest stretch without an update was \(longest) s of \(window) s")

        // At rest the observer equals the directory, item by item.
        await f.store.synchronize()
        let state = f.recorder.current
        #expect(state.violations.isEmpty, "\(state.violations.prefix(3))")
        let expected = try Self.onDisk(f.store)
        #expect(state.ids == expected.keys.sorted())
        #expect(state.results.allSatisfy { expected[$0.id] == $0.object })
    }

    @Test(
        "a stalled subscriber gets one merged update when it resumes, and converges",
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
