import Dispatch
import Foundation
import Glibc
import JSONStore

/// The history's costs, side by side with the same store keeping none: edit → observer
/// latency while a watcher records each edit, `update` throughput, the journal's bytes per
/// one-member change, and `jsonstore log ID` on a journal of a million entries.
enum HistoryBenchmark {
    static func run(directory: String, count: Int, edits: Int) throws {
        try latency(directory: directory, count: count, edits: edits)
        try throughput(directory: directory, updates: max(edits, 100))
        try logOnMillion(directory: directory, entries: count >= 100_000 ? 1_000_000 : count * 10)
    }

    /// Hand edits (a file renamed over an item) to two stores of `count` items, one keeping
    /// history, one not, alternating: the observer's callback, p50, with each store's edits
    /// 20 ms apart, then 4 ms apart.
    static func latency(directory: String, count: Int, edits: Int) throws {
        final class Latch: @unchecked Sendable {
            let semaphore = DispatchSemaphore(value: 0)
            var delivered = 0.0
        }
        var stores: [(JSONStore, String, Latch, ObservationToken)] = []
        for keeps in [true, false] {
            let path = directory + (keeps ? "/with" : "/without")
            try fill(path, count: count)
            var options = JSONStore.Options()
            options.keepsHistory = keeps
            let store = try JSONStore(directory: path, options: options)
            let latch = Latch()
            let token = store.observe(on: DispatchQueue(label: "bench.history")) { _ in
                latch.delivered = now()
                latch.semaphore.signal()
            }
            latch.semaphore.wait()  // .initial
            stores.append((store, path, latch, token))
        }
        _ = try stores[0].0.history(limit: 1)  // what the start found is recorded
        var edit = 0
        // The edits of each store `gap` seconds apart at least, the two stores taking turns.
        func medians(gap: Double) -> (on: Double, off: Double) {
            var times: [[Double]] = [[], []]
            for _ in 0..<(edits * 2) {
                let side = edit % 2
                let (_, path, latch, _) = stores[side]
                var object = item(edit)
                object["edit"] = .number(JSONNumber(edit))
                let start = saveByRename(
                    object, as: String(format: "item-%06d", (edit * 7919) % count), in: path)
                latch.semaphore.wait()
                times[side].append(latch.delivered - start)
                usleep(UInt32(gap / 2 * 1e6))
                edit += 1
            }
            return (median(times[0]), median(times[1]))
        }
        // A person's edits are seconds apart; a script's may come in a burst, when the
        // recorder's turns share the two cores with the next edits.
        let paced = medians(gap: 0.02)
        let burst = medians(gap: 0.004)
        stores.forEach { $0.3.invalidate() }
        let recorded = try stores[0].0.history().filter { !$0.isLate }.count
        let paces: [(String, (on: Double, off: Double))] = [
            ("20 ms apart", paced), ("4 ms apart, a burst", burst),
        ]
        for (name, (on, off)) in paces {
            print(
                "\(count) items, \(edits) hand edits each way, \(name): edit → observer p50 "
                    + String(format: "%.3f ms with history, %.3f ms without", on * 1000, off * 1000)
            )
        }
        print("\(recorded) of the \(edits * 2) edits with history recorded as they were made")
        tableRow(
            "edit -> observer with history recorded, p50, \(count) items, edits 20 ms apart",
            String(format: "%.3f ms against %.3f ms without", paced.on * 1000, paced.off * 1000),
            String(format: "%.2fx", paced.on / paced.off), "<= 1.1x", paced.on / paced.off <= 1.1)
        tableRow(
            "edit -> observer with history recorded, p50, \(count) items, edits 4 ms apart",
            String(format: "%.3f ms against %.3f ms without", burst.on * 1000, burst.off * 1000),
            String(format: "%.2fx", burst.on / burst.off), "-", nil)
    }

    /// `update`s of one member of ~117-byte items with history (as by default, and synced
    /// by each write) and without, the three taking turns in rounds of 20; then the
    /// journal's bytes per change.
    static func throughput(directory: String, updates: Int) throws {
        let sides = ["set-with", "set-synced", "set-without"]
        var options = [JSONStore.Options](repeating: JSONStore.Options(), count: sides.count)
        options[1].historySyncsEachWrite = true
        options[2].keepsHistory = false
        let stores = try sides.indices.map { side in
            let path = directory + "/" + sides[side]
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true)
            return try JSONStore(directory: path, options: options[side])
        }
        for store in stores {
            for i in 0..<20 {
                try store.put(
                    "task-\(i)", ["title": "Water the plants", "status": "todo", "priority": 2])
            }
        }
        let journal = directory + "/set-with/.jsonstore/journal"
        let startBytes = size(of: journal)
        var rates = [[Double]](repeating: [], count: sides.count)
        var changes = 0
        for round in 0..<(updates / 20) {
            for turn in sides.indices {
                let side = (round + turn) % sides.count
                let start = now()
                for i in 0..<20 {
                    try stores[side].update("task-\(i)") {
                        $0["priority"] = .number(JSONNumber(round))
                    }
                }
                rates[side].append(20 / (now() - start))
                if side == 0 { changes += 20 }
            }
        }
        let perChange = Double(size(of: journal) - startBytes) / Double(changes)
        let (on, synced, off) = (median(rates[0]), median(rates[1]), median(rates[2]))
        print(
            String(
                format:
                    "update of one member, ~60-byte items: %.0f/s with history, %.0f/s with history synced each write, %.0f/s without (%.2fx, %.2fx); %.0f bytes of journal per change",
                on, synced, off, on / off, synced / off, perChange))
        tableRow(
            "update throughput with history", String(format: "%.0f/s against %.0f/s", on, off),
            String(format: "%.2fx", on / off), ">= 0.8x", on / off >= 0.8)
        tableRow(
            "update throughput, history synced each write",
            String(format: "%.0f/s against %.0f/s", synced, off),
            String(format: "%.2fx", synced / off), "-", nil)
        tableRow(
            "journal bytes per one-member change", String(format: "%.0f B", perChange),
            String(format: "%.0f B", perChange), "<= 1 KiB", perChange <= 1024)
    }

    /// A journal of `entries` lines for 10,000 items, made as the journal writes them, then
    /// `jsonstore log ID` timed, for an item whose changes are spread over all of it.
    static func logOnMillion(directory: String, entries: Int) throws {
        let path = directory + "/log"
        let journal = path + "/.jsonstore/journal"
        try FileManager.default.createDirectory(
            atPath: journal, withIntermediateDirectories: true)
        let header = #"{"journal":"0123456789abcdef0123456789abcdef","format":1}"# + "\n"
        var segment = Data(header.utf8)
        var first = 1
        func flush(_ next: Int) throws {
            try segment.write(
                to: URL(fileURLWithPath: journal + "/" + String(format: "%020d.jsonl", first)))
            (segment, first) = (Data(header.utf8), next)
        }
        for revision in 1...entries {
            let id = String(format: "item-%05d", revision % 10_000)
            let kind = revision <= 10_000 ? "created" : "modified"
            let line =
                kind == "created"
                ? #"{"rev":\#(revision),"time":1764648000000000000,"id":"\#(id)","kind":"created","fp":"60-1","whole":true,"source":"other","value":{"title":"Water the plants","status":"todo","priority":0}}"#
                : #"{"rev":\#(revision),"time":1764648000000000000,"id":"\#(id)","kind":"modified","fp":"60-1","source":"jsonstore","command":"set","op":"0123456789abcdef","changes":[{"path":"/priority","old":\#(revision - 10_000),"new":\#(revision)}]}"#
            segment.append(contentsOf: Array(line.utf8) + [10])
            if segment.count >= 4 << 20 { try flush(revision + 1) }
        }
        if segment.count > header.utf8.count { try flush(entries + 1) }
        try Data(#"{"title":"Water the plants","status":"todo","priority":0}"#.utf8).write(
            to: URL(fileURLWithPath: path + "/item-00042.json"))
        let bin = ProcessInfo.processInfo.environment["JSONSTORE_BIN"] ?? "jsonstore"
        var times: [Double] = []
        var lines = 0
        let output = path + ".out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        for _ in 0..<5 {
            let run = try SpawnTimer.run(
                bin, ["--dir", path, "log", "item-00042", "-n", "20", "-o", "ndjson"],
                stdoutTo: output)
            guard run.status == 0 else { throw CocoaError(.fileReadUnknown) }
            times.append(run.seconds)
            lines = try Data(contentsOf: URL(fileURLWithPath: output)).split(separator: 10).count
        }
        // What starting any command costs here, for scale: `true`, started the same way.
        let floor = try (0..<5).map { _ in
            try SpawnTimer.run("/bin/true", [], stdoutTo: output).seconds
        }
        let megabytes = Double(size(of: journal)) / 1_048_576
        print(
            String(
                format:
                    "jsonstore log ID -n 20 on a journal of %d entries (%.0f MiB), the item's changes spread over all of it: %@ (%d lines; starting /bin/true: %.1f ms)",
                entries, megabytes, spreadText(times, scale: 1000, digits: 1, unit: "ms"), lines,
                median(floor) * 1000))
        tableRow(
            "log ID on a journal of \(entries) entries",
            spreadText(times, scale: 1000, digits: 1, unit: "ms"),
            String(format: "%.1f ms", median(times) * 1000), "< 100 ms", median(times) < 0.1)
    }

    /// The bytes of the files in `folder`.
    static func size(of folder: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.reduce(0) { total, name in
            total
                + ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name))?[
                    .size] as? Int ?? 0)
        }
    }
}
