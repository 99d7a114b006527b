import Dispatch
import Foundation
import Glibc
import JSONStore

/// Edit → observer latency with member-level changes against without, side by side: the
/// edits alternate between the diff on and off (`MemberChange.diffsModifications`), on a
/// store of `count` items, each edit a rename over an item that changes a few of its
/// members, nested ones too.
enum PatchBenchmark {
    static func run(directory: String, count: Int, edits: Int) throws {
        let path = directory + "/patches"
        try fill(path, count: count)
        let store = try JSONStore(directory: path)
        final class Latch: @unchecked Sendable {
            let semaphore = DispatchSemaphore(value: 0)
            var delivered = 0.0
            var members = 0
        }
        let latch = Latch()
        let token = store.observe(on: DispatchQueue(label: "bench.patches")) { change in
            if case .update(_, let changes) = change {
                latch.members = changes.modified.first?.changes.count ?? 0
            }
            latch.delivered = now()
            latch.semaphore.signal()
        }
        latch.semaphore.wait()  // .initial
        var with: [Double] = []
        var without: [Double] = []
        var members = 0
        for edit in 0..<(edits * 2) {
            let diffing = edit % 2 == 0
            MemberChange.diffsModifications = diffing  // no edit is in flight here
            let target = String(format: "item-%06d", (edit * 7919) % count)
            var object = item(edit)
            object["edit"] = .number(JSONNumber(edit))
            object["tags"] = .array([
                .string("tag\(edit % 7)"), .string("bench"), .string("e\(edit)"),
            ])
            object["owner"] = ["name": .string("user \(edit % 13)"), "team": "bench"]
            let start = saveByRename(object, as: target, in: path)
            latch.semaphore.wait()
            (diffing
                ? { with.append(latch.delivered - start) }
                : { without.append(latch.delivered - start) })()
            if diffing { members += latch.members }
        }
        token.invalidate()
        MemberChange.diffsModifications = true
        let (on, off) = (median(with), median(without))
        print(
            String(
                format:
                    "%d items, %d edits each way (alternating): edit → callback p50 %.3f ms with member changes (%.1f members an edit), %.3f ms without",
                count, edits, on * 1000, Double(members) / Double(edits), off * 1000))
        print(String(format: "with / without: %.2fx (target <= 1.1x)", on / off))
        tableRow(
            "edit -> observer with member changes, p50, \(count) items",
            String(format: "%.3f ms against %.3f ms without", on * 1000, off * 1000),
            String(format: "%.2fx", on / off), "<= 1.1x", on / off <= 1.1)
    }
}
