import Dispatch
import Foundation
import Glibc
import JSONStore

/// What the store's schema costs, side by side with the same store without one: edit →
/// observer latency, the edits alternating between the two stores, and loading every item,
/// the loads alternating too. The schema is a typical one: a dozen properties, an `enum`,
/// a `pattern`, `required`, bounds, no other members.
enum SchemaBenchmark {
    static let schema = #"""
        {
          "type": "object",
          "properties": {
            "id": {"type": "string"},
            "title": {"type": "string", "minLength": 1, "maxLength": 200},
            "status": {"enum": ["todo", "doing", "done"]},
            "priority": {"type": "integer", "minimum": 0, "maximum": 4},
            "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9]+$"}},
            "updated": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T"},
            "notes": {"type": "string", "maxLength": 10000},
            "owner": {"type": "object", "properties": {"name": {"type": "string"}}},
            "due": {"type": "string"},
            "estimate": {"type": "number", "minimum": 0},
            "done": {"type": "boolean"},
            "edit": {"type": "integer"}
          },
          "required": ["title", "status", "priority"],
          "additionalProperties": false
        }
        """#

    static func run(directory: String, count: Int, edits: Int) throws {
        let paths = [directory + "/with", directory + "/without"]
        for path in paths { try fill(path, count: count) }
        try JSONStore(directory: paths[0]).setSchema(Array(schema.utf8))

        // Loading, alternating: 5 loads each.
        var loads: [[Double]] = [[], []]
        for run in 0..<10 {
            let side = run % 2
            let start = now()
            let items = try JSONStore(directory: paths[side]).load().items
            loads[side].append(now() - start)
            precondition(items.count == count, "\(paths[side]): \(items.count) items")
        }

        // Edit → observer, alternating between the stores.
        final class Latch: @unchecked Sendable {
            let semaphore = DispatchSemaphore(value: 0)
            var delivered = 0.0
            var invalid = 0
        }
        let latches = [Latch(), Latch()]
        var tokens: [ObservationToken] = []
        for side in 0..<2 {
            let latch = latches[side]
            let store = try JSONStore(directory: paths[side])
            tokens.append(
                store.observe(on: DispatchQueue(label: "bench.schema.\(side)")) { change in
                    if case .update(let results, _) = change {
                        latch.invalid = results.invalid.count
                    }
                    latch.delivered = now()
                    latch.semaphore.signal()
                })
            latch.semaphore.wait()  // .initial
        }
        var latencies: [[Double]] = [[], []]
        for edit in 0..<(edits * 2) {
            let side = edit % 2
            var object = item(edit)
            object["edit"] = .number(JSONNumber(edit))
            let target = String(format: "item-%06d", (edit / 2 * 7919) % count)
            let start = saveByRename(object, as: target, in: paths[side])
            latches[side].semaphore.wait()
            latencies[side].append(latches[side].delivered - start)
        }
        for token in tokens { token.invalidate() }
        precondition(latches[0].invalid == 0, "an edit broke the schema")

        let (on, off) = (median(latencies[0]), median(latencies[1]))
        print(
            String(
                format:
                    "%d items, %d edits each way (alternating): edit → callback p50 %.3f ms with the schema, %.3f ms without",
                count, edits, on * 1000, off * 1000))
        print(String(format: "with / without: %.2fx (target <= 1.2x)", on / off))
        tableRow(
            "edit -> observer with a schema, p50, \(count) items",
            String(format: "%.3f ms against %.3f ms without", on * 1000, off * 1000),
            String(format: "%.2fx", on / off), "<= 1.2x", on / off <= 1.2)
        let (loadOn, loadOff) = (median(loads[0]), median(loads[1]))
        print(
            "load of \(count) items: \(spreadText(loads[0])) with the schema, \(spreadText(loads[1])) without"
        )
        print(String(format: "with / without: %.2fx (target <= 1.3x)", loadOn / loadOff))
        tableRow(
            "load with a schema, \(count) items",
            "\(spreadText(loads[0])) against \(spreadText(loads[1])) without",
            String(format: "%.2fx", loadOn / loadOff), "<= 1.3x", loadOn / loadOff <= 1.3)
    }
}
