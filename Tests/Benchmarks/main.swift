import Foundation
import Glibc
import JSONStore
import JSONStoreCommand

// Benchmarks for the store core, run by scripts/bench (release build). Every figure is a
// median of several runs taken side by side, alternating, so a noisy machine affects both
// sides alike.
//
//   jsonstore-bench load DIR N RUNS   create N items in DIR (if empty), then time loading
//                                     one by one and in parallel, and parsing with
//                                     JSONReader and with Foundation's JSONSerialization.
//   jsonstore-bench reader DIR N RUNS generated documents of each shape (numbers, strings,
//                                     members, deep) at lengths doubling from 1,000 to N:
//                                     JSONReader's time per doubling and against
//                                     JSONSerialization; then the largest item of each.
//   jsonstore-bench decode DIR N RUNS  typed decoding of N small items, and of one array of
//                                     N items, against Foundation's JSONDecoder.
//   jsonstore-bench soak DIR N MINUTES  scripts/soak: edits of every kind for MINUTES while
//                                     followers run, with convergence checks (N unused).
//   jsonstore-bench stall DIR N SECONDS  `jsonstore list --follow --json` whose stdout is
//                                     never read, while N items are rewritten for SECONDS:
//                                     its resident memory at the start, at most, at the end.
//   jsonstore-bench render DIR N FRAMES  the list view's frame time (layout, diff, output
//                                     bytes) for a store of 100 items and one of N, and
//                                     the time of a key typed into its / filter.
//   jsonstore-bench schema DIR N EDITS   edit → observer latency and load time with a
//                                        typical schema against without, side by side
//   jsonstore-bench patches DIR N EDITS  edit → observer latency with member-level changes
//                                        against without, alternating, on N items
//   jsonstore-bench live DIR N EDITS  the latency from an edit on disk (a file renamed over
//                                     an item) to an untyped and a typed observer's
//                                     callback, in a store of 1,000 items and one of N,
//                                     edits alternating between them.
//   jsonstore-bench inotify-floor DIR N EDITS  edit → `list --follow --json` line in a store
//                                     of N items against inotifywait's on the same edits.
//   jsonstore-bench floor DIR THREADS 1  the read floor of `list`: read every file of DIR
//                                     and write it to stdout (THREADS > 1: read on that
//                                     many threads, writing nothing).
//   jsonstore-bench overflow DIR N RUNS  N files made while an observer's watcher is
//                                     stalled (an inotify overflow and a resync) against a
//                                     cold load of the same files.
//   jsonstore-bench stat DIR 0 RUNS    fstatat against statx with a narrow mask, per name
//                                     in DIR (what a poll does for each entry).
//   jsonstore-bench write DIR N RUNS  writing N new items: one batch synced with one syncfs,
//                                     the same batch with an fsync per file, and N single
//                                     puts, alternating, each into a fresh directory.
//   jsonstore-bench etcd-live - EDITS 1  etcd put → observer callback and → NDJSON line of
//                                     `jsonstore --store etcd://… list --follow --json`,
//                                     against a raw watch client on the same puts (each
//                                     case starts its own etcd).
//   jsonstore-bench etcd-load - N RUNS  the initial load of N items from etcd: load() and an
//                                     observer's first results, against etcdctl get --prefix.
//   jsonstore-bench etcd-rate - RATE SECONDS  RATE puts a second from a writer process
//                                     (etcd-writer): an observer's gaps, convergence, RSS.
//   jsonstore-bench mirror DIR N EDITS  two directories mirrored through one etcd: the first
//                                     mirror of N items against 2 × a cold load + etcd's
//                                     write of them, the download, then EDITS saves in one
//                                     directory timed to an observer of the other.
//   jsonstore-bench mirror-soak DIR 0 MINUTES  scripts/soak --mirror: both directories
//                                     edited every way, checked equal to etcd every 30 s.
//   jsonstore-bench etcd-transport - REQUESTS RUNS  a range round trip by URLSession against
//                                     EtcdClient, and the RSS of each in fresh processes
//                                     (etcd-rss HOST:PORT 0|1 1, RUNS of each).

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Times the spans between paired `tick()`s: the first of a pair starts a lap, the second
/// ends it.
final class Laps {
    private(set) var times: [Double] = []
    private var start: Double?

    func tick() {
        if let started = start {
            times.append(now() - started)
            start = nil
        } else {
            start = now()
        }
    }
}

/// A row of `scripts/bench all`'s table: `row | case | measured | judged by | target | met`.
/// `met` is nil where the case has no target.
func tableRow(_ name: String, _ measured: String, _ judged: String, _ target: String, _ met: Bool?)
{
    let verdict = met.map { $0 ? "met" : "missed" } ?? "-"
    print("row | \(name) | \(measured) | \(judged) | \(target) | \(verdict)")
}

/// `M (min-max)` of `values` times `scale`, with `digits` decimals.
func spreadText(_ values: [Double], scale: Double = 1, digits: Int = 3, unit: String = "s")
    -> String
{
    let f = { String(format: "%.\(digits)f", $0 * scale) }
    return "\(f(median(values))) \(unit) (\(f(values.min()!))-\(f(values.max()!)))"
}

/// The median; of an even count, the mean of the middle two.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let n = sorted.count
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
}

func item(_ i: Int) -> JSONObject {
    [
        "title": .string("Task number \(i) with a title of moderate length"),
        "status": .string(["todo", "doing", "done"][i % 3]),
        "priority": .number(JSONNumber(i % 5)),
        "tags": .array([.string("tag\(i % 7)"), .string("bench")]),
        "updated": .string("2026-11-29T12:00:00Z"),
        "notes": .string(String(repeating: "lorem ipsum ", count: 8)),
    ]
}

let arguments = CommandLine.arguments
guard arguments.count == 5, let n = Int(arguments[3]), let runs = Int(arguments[4]) else {
    print("usage: jsonstore-bench load|live DIR N RUNS")
    exit(64)
}
if arguments[1] == "soak" {
    try soak(directory: arguments[2], minutes: Double(runs))
    exit(0)
}
if arguments[1] == "stall" {
    try benchStall(directory: arguments[2], count: n, seconds: runs)
    exit(0)
}
if arguments[1] == "decode" {
    try benchDecode(count: n, runs: runs)
    exit(0)
}
if arguments[1] == "reader" {
    try benchReader(maxLength: n, runs: runs)
    exit(0)
}
if arguments[1] == "render" {
    try benchRender(directory: arguments[2], big: n, frames: runs)
    exit(0)
}
if arguments[1] == "write" {
    try benchWrite(directory: arguments[2], count: n, runs: runs)
    exit(0)
}
if arguments[1] == "overflow" {
    try benchOverflow(directory: arguments[2], count: n, runs: runs)
    exit(0)
}
if arguments[1] == "stat" {
    benchStatCost(directory: arguments[2], runs: runs)
    exit(0)
}
if arguments[1] == "floor" {
    readFloor(directory: arguments[2], threads: n)
    exit(0)
}
if arguments[1] == "live" {
    try benchLive(directory: arguments[2], big: n, edits: runs)
    exit(0)
}
if arguments[1] == "counts" {
    try CountsBenchmark.run(directory: arguments[2], big: n, edits: runs)
    exit(0)
}
if arguments[1] == "schema" {
    try SchemaBenchmark.run(directory: arguments[2], count: n, edits: runs)
    exit(0)
}
if arguments[1] == "patches" {
    try PatchBenchmark.run(directory: arguments[2], count: n, edits: runs)
    exit(0)
}
switch arguments[1] {
case "etcd-live":
    try EtcdLiveBenchmark.run(edits: n)
    exit(0)
case "etcd-load":
    try EtcdLoadBenchmark.run(count: n, runs: runs)
    exit(0)
case "etcd-rate":
    try EtcdRateBenchmark.run(rate: n, seconds: runs)
    exit(0)
case "etcd-writer":
    try EtcdRateBenchmark.Writer.run(endpoint: arguments[2], rate: n, seconds: runs)
    exit(0)
case "etcd-transport":
    try EtcdTransportBenchmark.run(requests: n, runs: runs)
    exit(0)
case "history":
    try HistoryBenchmark.run(directory: arguments[2], count: n, edits: runs)
    exit(0)
case "mirror":
    try MirrorBenchmark.run(directory: arguments[2], count: n, edits: runs)
    exit(0)
case "mirror-soak":
    try MirrorSoak.run(directory: arguments[2], minutes: Double(runs))
    exit(0)
case "inotify-floor":
    try InotifyFloorBenchmark.run(directory: arguments[2], count: n, edits: runs)
    exit(0)
case "etcd-rss":
    try EtcdTransportBenchmark.Probe.run(endpoint: arguments[2], urlSession: n == 1)
    exit(0)
default: break
}
var options = JSONStore.Options()
options.createDirectory = true
let store = try JSONStore(directory: arguments[2], options: options)
if try store.load().items.count != n {
    let setup = now()
    try store.write { tx in
        for i in 0..<n { try tx.put(String(format: "item-%06d", i), item(i)) }
    }
    print("created \(n) items in \(String(format: "%.2f", now() - setup)) s")
}
var serialOptions = options
serialOptions.parallelLoadThreshold = .max
let serialStore = try JSONStore(directory: arguments[2], options: serialOptions)

// Bytes of every file, for the parser-only comparison.
let files = try FileManager.default.contentsOfDirectory(atPath: arguments[2]).filter {
    $0.hasSuffix(".json")
}
let contents = try files.map { try Data(contentsOf: URL(fileURLWithPath: arguments[2] + "/" + $0)) }
let totalBytes = contents.reduce(0) { $0 + $1.count }
let byteArrays = contents.map { [UInt8]($0) }

var serial: [Double] = []
var parallel: [Double] = []
var ours: [Double] = []
var foundation: [Double] = []
for _ in 0..<runs {
    var t = now()
    let a = try serialStore.load()
    serial.append(now() - t)
    t = now()
    let b = try store.load()
    parallel.append(now() - t)
    precondition(a.items.count == n && b.items.count == n)

    t = now()
    var members = 0
    for bytes in byteArrays { members += try JSONReader().read(bytes).objectValue!.count }
    ours.append(now() - t)
    t = now()
    var members2 = 0
    for data in contents {
        members2 += (try JSONSerialization.jsonObject(with: data) as! [String: Any]).count
    }
    foundation.append(now() - t)
    precondition(members == members2)
}

let mb = Double(totalBytes) / 1e6
print(
    "items: \(n), bytes: \(totalBytes), runs: \(runs), cores: \(ProcessInfo.processInfo.activeProcessorCount)"
)
print(
    String(
        format: "load, one by one:      median %.3f s  (%.0f items/s)", median(serial),
        Double(n) / median(serial)))
print(
    String(
        format: "load, parallel:        median %.3f s  (%.0f items/s)", median(parallel),
        Double(n) / median(parallel)))
print(String(format: "parallel speed-up:     %.2fx", median(serial) / median(parallel)))
print(
    String(
        format: "parse, JSONReader:     median %.3f s  (%.0f MB/s)", median(ours), mb / median(ours)
    ))
print(
    String(
        format: "parse, JSONSerialization: median %.3f s  (%.0f MB/s)", median(foundation),
        mb / median(foundation)))
print(
    String(
        format: "JSONReader vs JSONSerialization: %.2fx faster", median(foundation) / median(ours)))
tableRow(
    "load \(n) items", spreadText(parallel),
    String(format: "%.0f items/s", Double(n) / median(parallel)), "-", nil)
let smallItems = median(foundation) / median(ours)
tableRow(
    "reader, \(n) small items", spreadText(ours),
    String(format: "%.2fx JSONSerialization", smallItems),
    ">= 1.5x", smallItems >= 1.5)

/// Creates `count` items in `directory` with plain writes (no fsync: this is set-up).
/// Saves `object` as the item `id` in `directory` as an editor does, a temporary file
/// renamed over the item's; returns the time of the rename, when the edit happens.
func saveByRename(_ object: JSONObject, as id: String, in directory: String) -> Double {
    let bytes = JSONWriter.pretty(.object(object))
    let temp = directory + "/.bench.tmp"
    let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    let start = now()
    rename(temp, directory + "/" + id + ".json")
    return start
}

func fill(_ directory: String, count: Int) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for i in 0..<count {
        let bytes = JSONWriter.pretty(.object(item(i)))
        let fd = open(
            directory + "/" + String(format: "item-%06d.json", i), O_WRONLY | O_CREAT | O_TRUNC,
            0o644)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}

/// A benchmark item decoded as a type, as a library user would.
struct BenchTask: Codable, Sendable {
    var id: String
    var title: String
    var status: String
    var priority: Int
    var tags: [String]
}

/// Delivery latency: an edit is a temp file renamed over an item, as `sed -i` does. The
/// untyped observer (`Item`s) is timed first, then the typed one (`BenchTask`), each alone
/// on its store so neither waits behind the other; edits alternate between the stores.
func benchLive(directory: String, big: Int, edits: Int) throws {
    final class Latch: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        var delivered = 0.0
    }
    var stores: [(name: String, store: JSONStore, count: Int)] = []
    for count in [1000, big] {
        let path = directory + "/" + String(count)
        try fill(path, count: count)
        stores.append(("\(count) items", try JSONStore(directory: path), count))
    }
    var medians: [[Double]] = []  // [kind][store]
    for (kind, name) in ["untyped", "typed"].enumerated() {
        var latencies: [[Double]] = [[], []]
        var tokens: [ObservationToken] = []
        let latches = stores.map { _ in Latch() }
        for (k, entry) in stores.enumerated() {
            let latch = latches[k]
            let start = now()
            let queue = DispatchQueue(label: "bench.\(k)")
            if kind == 0 {
                tokens.append(
                    entry.store.observe(on: queue) { _ in
                        latch.delivered = now()
                        latch.semaphore.signal()
                    })
            } else {
                tokens.append(
                    entry.store.observe(BenchTask.self, on: queue) { _ in
                        latch.delivered = now()
                        latch.semaphore.signal()
                    })
            }
            latch.semaphore.wait()  // .initial
            print(
                String(
                    format: "%@, %@: initial load and first results in %.3f s", entry.name, name,
                    latch.delivered - start))
        }
        for edit in 0..<edits {
            for (k, entry) in stores.enumerated() {
                let target = String(format: "item-%06d", (edit * 7919) % entry.count)
                var object = item(edit)
                object["edit"] = .number(JSONNumber(edit + kind * edits))
                let start = saveByRename(object, as: target, in: entry.store.path)
                latches[k].semaphore.wait()
                latencies[k].append(latches[k].delivered - start)
            }
        }
        for token in tokens { token.invalidate() }
        medians.append(latencies.map(median))
        for (k, entry) in stores.enumerated() {
            let sorted = latencies[k].sorted()
            print(
                String(
                    format:
                        "%@, %@: edit → callback, median %.3f ms (p90 %.3f, max %.3f) over %d edits",
                    entry.name, name, median(sorted) * 1000, sorted[sorted.count * 9 / 10] * 1000,
                    sorted.last! * 1000, edits))
        }
    }
    for (kind, name) in ["untyped", "typed"].enumerated() {
        let ratio = medians[kind][1] / medians[kind][0]
        print(String(format: "ratio %@ (%d items / 1000 items): %.2fx", name, big, ratio))
        tableRow(
            "edit -> \(name) observer, p50, \(big) items",
            String(
                format: "%.3f ms at 1,000, %.3f ms at %d", medians[kind][0] * 1000,
                medians[kind][1] * 1000, big), String(format: "%.2fx", ratio), "<= 1.3x",
            ratio <= 1.3)
    }
    print(String(format: "typed vs untyped at %d items: %.2fx", big, medians[1][1] / medians[0][1]))
}

/// The initial results of the store in `path`, as an observer receives them.
func initialResults(_ store: JSONStore) -> Results<Item> {
    final class Box: @unchecked Sendable {
        var results = Results<Item>()
        let done = DispatchSemaphore(value: 0)
    }
    let box = Box()
    let token = store.observe(on: DispatchQueue(label: "bench.initial")) { change in
        if case .initial(let results) = change {
            box.results = results
            box.done.signal()
        }
    }
    box.done.wait()
    token.invalidate()
    return box.results
}

/// Frame time of the list view: 100 items against `big`, frames alternating in batches.
func benchRender(directory: String, big: Int, frames: Int) throws {
    var results: [(String, Results<Item>)] = []
    for count in [100, big] {
        let path = directory + "/" + String(count)
        try fill(path, count: count)
        results.append(("\(count) items", initialResults(try JSONStore(directory: path))))
    }
    var times: [[Double]] = [[], []]
    var bytes: [[Int]] = [[], []]
    for _ in 0..<10 {
        for (k, entry) in results.enumerated() {
            let laps = Laps()
            bytes[k] += RenderBenchmark.run(
                entry.1, frames: frames / 10, width: 120, height: 40, tick: laps.tick)
            times[k] += laps.times
        }
    }
    for (k, entry) in results.enumerated() {
        print(
            String(
                format:
                    "%@: frame median %.3f ms, median %d bytes written (120×40, selection moving a row)",
                entry.0, median(times[k]) * 1000, bytes[k].sorted()[bytes[k].count / 2]))
    }
    print(
        String(
            format: "ratio (%d items / 100 items): %.2fx", big, median(times[1]) / median(times[0]))
    )
    // Typing "number 12" into the / filter: with no index, the first key lays out every
    // row once; with the index the app builds off the main queue for a big store, it only
    // scans text, as every further key does (the first eight match nearly every row).
    var builds: [Double] = []
    var firstKeys: [[Double]] = [[], [], []]
    var keys: [[Double]] = [[], []]
    for _ in 0..<5 {
        for (k, entry) in results.enumerated() {
            let laps = Laps()
            _ = RenderBenchmark.filter(
                entry.1, needle: "number 12", width: 120, height: 40, tick: laps.tick)
            firstKeys[k].append(laps.times[0])
            keys[k] += laps.times.dropFirst()
        }
        let laps = Laps()
        _ = RenderBenchmark.filter(
            results[1].1, needle: "number 12", width: 120, height: 40, indexFirst: true,
            tick: laps.tick)
        builds.append(laps.times[0])
        firstKeys[2].append(laps.times[1])
    }
    for (k, entry) in results.enumerated() {
        print(
            String(
                format:
                    "%@: / filter, first key with its frame, no index yet: median %.3f ms; each further key: median %.3f ms",
                entry.0, median(firstKeys[k]) * 1000, median(keys[k]) * 1000))
    }
    print(
        String(
            format:
                "%@: search index built off the main queue in median %.3f ms; then the first key: median %.3f ms",
            results[1].0, median(builds) * 1000, median(firstKeys[2]) * 1000))
}

/// Writing `count` new items, three ways, each run into a fresh directory.
func benchWrite(directory: String, count: Int, runs: Int) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var options = JSONStore.Options()
    options.createDirectory = true
    let objects = (0..<count).map { (String(format: "item-%06d", $0), item($0)) }
    func timed(_ name: String, _ body: (JSONStore) throws -> Void) throws -> Double {
        let path = directory + "/" + name
        let store = try JSONStore(directory: path, options: options)
        let start = now()
        try body(store)
        let elapsed = now() - start
        let written = try store.load().items.count
        precondition(written == count)
        try FileManager.default.removeItem(atPath: path)
        return elapsed
    }
    let defaultThreshold = Transaction.fileSystemSyncThreshold
    var syncfsBatch: [Double] = []
    var fsyncBatch: [Double] = []
    var singles: [Double] = []
    for run in 0..<runs {
        Transaction.fileSystemSyncThreshold = defaultThreshold
        syncfsBatch.append(
            try timed("syncfs-\(run)") { store in
                try store.write { tx in for (id, object) in objects { try tx.put(id, object) } }
            })
        Transaction.fileSystemSyncThreshold = .max
        fsyncBatch.append(
            try timed("fsync-\(run)") { store in
                try store.write { tx in for (id, object) in objects { try tx.put(id, object) } }
            })
        Transaction.fileSystemSyncThreshold = defaultThreshold
        singles.append(
            try timed("puts-\(run)") { store in
                for (id, object) in objects { try store.put(id, object) }
            })
    }
    print("items: \(count), runs: \(runs)")
    print(
        String(
            format: "one batch, one syncfs:      median %.3f s  (%.0f items/s)",
            median(syncfsBatch), Double(count) / median(syncfsBatch)))
    print(
        String(
            format: "one batch, fsync per file:  median %.3f s  (%.0f items/s)", median(fsyncBatch),
            Double(count) / median(fsyncBatch)))
    print(
        String(
            format: "single puts:                median %.3f s  (%.0f items/s)", median(singles),
            Double(count) / median(singles)))
    print(
        String(
            format: "syncfs batch vs fsync batch: %.2fx faster",
            median(fsyncBatch) / median(syncfsBatch)))
}
