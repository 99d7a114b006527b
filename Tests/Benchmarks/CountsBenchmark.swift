import Dispatch
import Foundation
import Glibc
import JSONStore

/// Live counts per edit at 1,000 items and at `big`: edit → callback of an observation
/// grouped by status that sums priority, each edit moving an item to another status
/// (two sections recounted) or changing its priority (one sum). Beside it, what counting
/// afresh over the store would cost per edit (grouping the loaded items again), the cost
/// O(changes) saves.
enum CountsBenchmark {
    static func run(directory: String, big: Int, edits: Int) throws {
        final class Latch: @unchecked Sendable {
            let semaphore = DispatchSemaphore(value: 0)
            var delivered = 0.0
            var counts: [Int] = []
        }
        let board = Query.all.grouped(by: "status", aggregating: ["priority"])
        var rows: [(count: Int, live: Double, afresh: Double)] = []
        for count in [1000, big] {
            let path = directory + "/counts-\(count)"
            try fill(path, count: count)
            let store = try JSONStore(directory: path)
            let latch = Latch()
            let token = store.observe(board, on: DispatchQueue(label: "bench.counts")) { change in
                if case .update(let results, _) = change {
                    latch.counts = results.sections.map(\.count)
                }
                latch.delivered = now()
                latch.semaphore.signal()
            }
            latch.semaphore.wait()  // .initial
            var latencies: [Double] = []
            for edit in 0..<edits {
                let target = String(format: "item-%06d", (edit * 7919) % count)
                var object = item(edit)
                object["edit"] = .number(JSONNumber(edit))  // never the bytes already there
                if edit % 2 == 1 { object["priority"] = .number(JSONNumber(100 + edit)) }
                let start = saveByRename(object, as: target, in: path)
                latch.semaphore.wait()
                latencies.append(latch.delivered - start)
            }
            token.invalidate()
            precondition(latch.counts.reduce(0, +) == count, "the counts lost an item")
            // Counting afresh: every item grouped again, as a recount per edit would.
            let items = try store.load().items
            var afresh: [Double] = []
            for _ in 0..<5 {
                let start = now()
                let grouped = board.apply(to: items)
                var counts: [String: Int] = [:]
                for item in grouped { counts[item["status"]?.stringValue ?? "", default: 0] += 1 }
                afresh.append(now() - start)
                precondition(counts.values.reduce(0, +) == count)
            }
            let sorted = latencies.sorted()
            print(
                String(
                    format:
                        "%d items: edit → counts callback p50 %.3f ms (p90 %.3f) over %d edits; counting afresh %.3f ms",
                    count, median(sorted) * 1000, sorted[sorted.count * 9 / 10] * 1000, edits,
                    median(afresh) * 1000))
            rows.append((count, median(latencies), median(afresh)))
        }
        let (small, large) = (rows[0], rows[1])
        let ratio = large.live / small.live
        print(
            String(
                format: "live counts, %d items / 1000 items: %.2fx (flat: O(changes))", big, ratio))
        for row in rows {
            tableRow(
                "edit -> live counts callback, p50, \(row.count) items",
                String(
                    format: "%.3f ms (counting afresh: %.3f ms)", row.live * 1000, row.afresh * 1000
                ),
                String(format: "%.0fx less than afresh", row.afresh / row.live), "-", nil)
        }
        tableRow(
            "live counts, \(big) items against 1000",
            String(format: "%.3f ms against %.3f ms", large.live * 1000, small.live * 1000),
            String(format: "%.2fx", ratio), "<= 1.5x", ratio <= 1.5)
    }
}
