import Dispatch
import Foundation
@_spi(Testing) import JSONStore

// The overflow path against a cold load: COUNT files created while an observer's watcher
// is stalled (the kernel's queue overflows, the engine reads the directory again), timed
// from the watcher's resumption to the observer holding every item; and a fresh store's
// first results on the same files. Runs alternate, each in a fresh directory.

func benchOverflow(directory: String, count: Int, runs: Int) throws {
    /// Signals once an observer's results reach the expected count, whether they arrive
    /// before or after the expectation is set.
    final class Watch: Sendable {
        private let state = Locked((latest: -1, target: Int.max))
        let reached = DispatchSemaphore(value: 0)
        func observe(_ count: Int) { update { $0.latest = count } }
        func expect(_ count: Int) { update { $0.target = count } }
        private func update(_ change: (inout (latest: Int, target: Int)) -> Void) {
            let arrived = state.withLock { state in
                change(&state)
                guard state.latest >= state.target else { return false }
                state.target = .max
                return true
            }
            if arrived { reached.signal() }
        }
    }
    var overflow: [Double] = []
    var cold: [Double] = []
    for run in 0..<runs {
        let path = directory + "/overflow-\(run)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let store = try JSONStore(directory: path)
        let watch = Watch()
        let token = store.observe(on: DispatchQueue(label: "bench.overflow")) { change in
            switch change {
            case .initial(let results), .update(let results, _): watch.observe(results.count)
            case .error: break
            }
        }
        watch.expect(0)
        watch.reached.wait()
        store.setWatcherSuspended(true)
        try fill(path, count: count)
        watch.expect(count)
        let start = now()
        store.setWatcherSuspended(false)
        watch.reached.wait()
        overflow.append(now() - start)
        token.invalidate()

        let fresh = try JSONStore(directory: path)
        let loaded = Watch()
        loaded.expect(count)
        let t = now()
        let second = fresh.observe(on: DispatchQueue(label: "bench.cold")) { change in
            if case .initial(let results) = change { loaded.observe(results.count) }
        }
        loaded.reached.wait()
        cold.append(now() - t)
        second.invalidate()
    }
    let ratio = median(overflow) / median(cold)
    print("\(count) files, \(runs) runs")
    print("overflow, resumed -> every item: \(spreadText(overflow))")
    print("cold load, first results: \(spreadText(cold))")
    print(String(format: "overflow / cold load: %.2fx", ratio))
    // Before this work (2d1e6f7, the same benchmark): 1.471 s against a 0.411 s cold load.
    tableRow(
        "\(count)-file overflow against a cold load", spreadText(overflow),
        String(format: "%.2fx the cold load (%.3f s)", ratio, median(cold)),
        "<= 3.58x (before)", ratio <= 3.58)
}
