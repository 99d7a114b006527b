import Dispatch
import Glibc
import JSONStore
import TestSupport
import Testing

/// Delivery policies: a throttle sends at most one update an interval, the last state
/// always; a coalescing window merges bursts, its cap keeping a steady stream from
/// starving the observer. Every change set still applies exactly (`ChangeRecorder`).
@Suite("Delivery policies")
struct DeliveryPolicyTests {
    static func seconds(_ a: DispatchTime, _ b: DispatchTime) -> Double {
        Double(b.uptimeNanoseconds - a.uptimeNanoseconds) / 1e9
    }

    @Test("throttle: updates at least an interval apart, the final state delivered")
    func throttle() async throws {
        let temp = try TemporaryStore()
        let recorder = ChangeRecorder()
        let token = temp.store.observe(
            policy: .throttle(interval: 0.3), on: DispatchQueue(label: "throttled"),
            recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        let store = temp.store
        let start = DispatchTime.now()
        try await blocking {
            for i in 0..<40 {
                try store.put(String(format: "item-%02d", i), ["n": .number(JSONNumber(i))])
            }
        }
        #expect(await recorder.wait { $0.ids.count == 40 })
        let elapsed = Self.seconds(start, .now())
        let state = recorder.current
        #expect(state.violations.isEmpty, "\(state.violations)")
        // At most one update an interval: however long it all took (load only stretches
        // it), no more updates than intervals, and one. (Callbacks run when their queue
        // lets them, so the gaps between them are not the gaps between sends.)
        #expect(
            state.updates.count <= Int((elapsed + 0.01) / 0.3) + 1,
            "\(state.updates.count) updates in \(elapsed) s")
        #expect(state.updates.count < 40)  // 40 puts, merged
        await temp.store.synchronize()  // waits for a throttled backlog too
        #expect(recorder.current.ids.count == 40)
    }

    @Test("coalesce: a steady stream within the window still delivers, every cap at most")
    func coalesce() async throws {
        let temp = try TemporaryStore()
        let recorder = ChangeRecorder()
        let token = temp.store.observe(
            policy: .coalesce(window: 0.25, cap: 0.5), on: DispatchQueue(label: "coalesced"),
            recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        // A write every 20 ms for 2 s: each within the window of the one before, so without
        // the cap nothing would go out until the writes stop.
        let store = temp.store
        let updatesWhileWriting = try await blocking {
            let start = DispatchTime.now()
            var i = 0
            while Self.seconds(start, .now()) < 2 {
                try store.put("counter", ["n": .number(JSONNumber(i))])
                i += 1
                usleep(20_000)
            }
            return recorder.current.updates.count
        }
        #expect(
            updatesWhileWriting >= 2, "the cap did not let updates through: \(updatesWhileWriting)")
        await temp.store.synchronize()
        let state = recorder.current
        #expect(state.violations.isEmpty, "\(state.violations)")
        #expect(state.results.first?["n"] == (try temp.store.item("counter"))?["n"])
    }
}
