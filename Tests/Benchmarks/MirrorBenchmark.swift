import Dispatch
import Foundation
import Glibc
import JSONStore
import JSONStoreEtcd
import TestSupport

/// `jsonstore mirror` on this machine: two directories and one etcd. The first mirror of
/// N items against a cold load and etcd's own write time for them; the download into an
/// empty directory; then a save in one directory (an editor's rename) timed to an
/// observer of the other seeing it; and the first mirror and the download again over the
/// JSON gateway, the old transport.
enum MirrorBenchmark {
    struct NotInSync: Error { let directory: String }

    /// `jsonstore-bench mirror DIR N EDITS`.
    static func run(directory: String, count: Int, edits: Int) throws {
        let server = try EtcdBench.startServer()
        let (a, b) = (directory + "/a", directory + "/b")
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        _ = try filled(a, count: count)
        // A cold load as the mirror's is: a process of the command reading every item
        // (`list -o ids` reads and parses each file), its start included.
        var loads: [Double] = []
        for _ in 0..<3 {
            loads.append(
                try EtcdBench.timedRun(JSONStoreBinary.path, ["--dir", a, "list", "-o", "ids"]))
        }
        let load = loads.sorted()[1]
        // etcd's own write time for the same values, in transactions of 128 puts, each run
        // into an etcd of its own, as fresh as the mirror's.
        var written: [Double] = []
        for run in 0..<3 {
            let fresh = try EtcdBench.startServer()
            defer { fresh.stop() }
            let client = EtcdClient(endpoints: [EtcdBench.endpoint(fresh)])
            let start = now()
            var next = 0
            while next < count {
                let batch = (next..<min(next + 128, count)).map {
                    EtcdClient.Operation(
                        key: Array("fill\(run)/\(EtcdBench.id($0))".utf8),
                        value: JSONWriter.pretty(.object(item($0))))
                }
                _ = try client.transaction(expecting: [], batch)
                next += batch.count
            }
            written.append(now() - start)
        }
        let write = written.sorted()[1]
        let address = "etcd://\(server.endpoint)/\(EtcdBench.prefix)"
        let (upload, first) = try timedMirror(a, address)
        print(
            String(
                format:
                    "first mirror of %d items: %.2f s; a cold load (jsonstore list -o ids) %.2f s (median of 3), etcd's own write of them %.2f s (median of 3, each into a fresh etcd)",
                count, upload, load, write))
        let budget = 2 * load + write
        tableRow(
            "mirror: first mirror of \(count) items", String(format: "%.2f s", upload), "time",
            String(format: "≤ 2 × load + etcd's write = %.2f s", budget), upload <= budget)
        let (download, second) = try timedMirror(b, address)
        // The floor of a download: etcdctl reading the prefix (a process, its output thrown
        // away), and the same files written into an empty directory as a store writes
        // them (each to a temporary name, renamed; one sync at the end).
        let read = try EtcdBench.timedRun(
            "/usr/bin/etcdctl",
            ["--endpoints", server.endpoint, "get", "--prefix", "\(EtcdBench.prefix)/"],
            environment: ["ETCDCTL_API": "3"])
        let files = try timedFiles(directory + "/c", count: count)
        print(
            String(
                format:
                    "download into an empty directory: %.2f s; etcdctl's read %.2f s and the files written %.2f s",
                download, read, files))
        tableRow(
            "mirror: download of \(count) items into an empty directory",
            String(format: "%.2f s", download), "time",
            String(format: "≤ 2 × (etcdctl's read + files written) = %.2f s", 2 * (read + files)),
            download <= 2 * (read + files))

        let observed = try JSONStore(directory: b)
        let seen = Locked<[Int: Double]>([:])
        let arrived = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let token = observed.observe(on: DispatchQueue(label: "bench.mirror")) { change in
            guard case .update(_, let changes) = change else {
                started.signal()
                return
            }
            let at = now()
            for modification in changes.modified {
                if let edit = modification.new["edit"]?.intValue {
                    seen.withLock { $0[edit] = at }
                    arrived.signal()
                }
            }
        }
        defer { token.invalidate() }
        started.wait()  // b's observer has its first results: every later save is an update
        var latencies: [Double] = []
        for edit in 0..<edits {
            let i = edit % count
            var object = item(i)
            object["edit"] = .number(JSONNumber(edit))
            let temp = a + "/.save-\(edit).tmp"
            try Data(JSONWriter.pretty(.object(object))).write(to: URL(fileURLWithPath: temp))
            let sent = now()
            rename(temp, a + "/" + EtcdBench.id(i) + ".json")
            while seen.withLock({ $0[edit] }) == nil {
                guard arrived.wait(timeout: .now() + 10) == .success else {
                    print("edit \(edit) did not arrive in b within 10 s")
                    break
                }
            }
            if let at = seen.withLock({ $0[edit] }) { latencies.append(at - sent) }
        }
        print("a save in a to an observer of b: \(EtcdBench.latencyText(latencies))")
        let p50 = EtcdBench.percentile(latencies, 0.5) * 1000
        tableRow(
            "mirror: a save → an observer of the other directory", String(format: "%.2f ms", p50),
            "p50", "≤ 20 ms", p50 <= 20)
        for process in [first, second] {
            process.terminate()
            process.waitUntilExit()
        }
        // The old transport beside the new, over the JSON gateway: a download of the same
        // prefix (with the edits above in it) into another empty directory, and a first
        // mirror of the same items into an etcd of its own.
        let (downloadGateway, third) = try timedMirror(
            directory + "/d", address, transport: "gateway")
        third.terminate()
        third.waitUntilExit()
        let fresh = try EtcdBench.startServer()
        defer { fresh.stop() }
        _ = try filled(directory + "/e", count: count)
        let (uploadGateway, fourth) = try timedMirror(
            directory + "/e", "etcd://\(fresh.endpoint)/\(EtcdBench.prefix)", transport: "gateway")
        fourth.terminate()
        fourth.waitUntilExit()
        print(
            String(
                format:
                    "over the JSON gateway: first mirror %.2f s (gRPC %.2f s: %.2fx the gateway's time), download %.2f s (gRPC %.2f s: %.2fx)",
                uploadGateway, upload, upload / uploadGateway, downloadGateway, download,
                download / downloadGateway))
        server.stop()
    }

    /// A store made at `directory` holding the benchmark's `count` items, in one batch.
    static func filled(_ directory: String, count: Int) throws -> JSONStore {
        var options = JSONStore.Options()
        options.createDirectory = true
        let store = try JSONStore(directory: directory, options: options)
        try store.write { tx in
            for i in 0..<count { try tx.put(EtcdBench.id(i), item(i)) }
        }
        return store
    }

    /// Writes the benchmark's `count` items into the empty directory `directory` as a
    /// store writes a file (a temporary name, then a rename), one `sync` at the end;
    /// returns the seconds.
    static func timedFiles(_ directory: String, count: Int) throws -> Double {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        let values = (0..<count).map { JSONWriter.pretty(.object(item($0))) }
        let start = now()
        for (i, value) in values.enumerated() {
            let temp = directory + "/.\(EtcdBench.id(i)).json.tmp"
            let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0,
                value.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) })
                    == value.count
            else { throw EtcdBenchError("cannot write \(temp)") }
            close(fd)
            guard rename(temp, directory + "/" + EtcdBench.id(i) + ".json") == 0 else {
                throw EtcdBenchError("cannot rename \(temp)")
            }
        }
        sync()  // the store syncs its file system once a batch; one for all of them here
        return now() - start
    }

    /// Starts `jsonstore --dir DIR mirror ADDRESS` and times it until it says it is in
    /// sync (with `transport`, its `--etcd-transport`); returns the seconds and the running
    /// process.
    static func timedMirror(_ directory: String, _ address: String, transport: String? = nil)
        throws -> (Double, Process)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
        process.arguments =
            ["--dir", directory] + (transport.map { ["--etcd-transport", $0] } ?? [])
            + ["mirror", address]
        let pipe = Pipe()
        process.standardError = pipe
        let reader = LineReader(pipe)
        let start = now()
        try process.run()
        guard reader.next(until: { $0.contains(": in sync with ") }, within: 600) != nil else {
            throw NotInSync(directory: directory)
        }
        return (now() - start, process)
    }
}
