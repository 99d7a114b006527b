import Dispatch
import Foundation
import Glibc
import JSONStore
import JSONStoreEtcd
import TestSupport

/// The initial load of a large prefix from etcd: `store.load()` and an observer's first
/// `.initial`, against `etcdctl get --prefix` of the same keys (a client nobody here
/// wrote, its output thrown away), each run of the three in a rotating order; then the
/// peak memory of a follower of the same items (`EtcdFollowerMemory`).
enum EtcdLoadBenchmark {
    /// `jsonstore-bench etcd-load - N RUNS`.
    static func run(count: Int, runs: Int) throws {
        let server = try EtcdBench.startServer()
        let client = EtcdClient(endpoints: [EtcdBench.endpoint(server)], transport: .grpc)
        let gateway = EtcdClient(endpoints: [EtcdBench.endpoint(server)], transport: .gateway)
        let filled = try EtcdBench.fill(client, count: count)
        let bytes = try client.range(prefix: Array("\(EtcdBench.prefix)/".utf8)).keyValues
            .reduce(0) { $0 + $1.key.count + $1.value.count }
        print(
            String(
                format: "etcd at %@: %d items (%d bytes of keys and values) written in %.2f s, "
                    + "transactions of 128 puts (%.0f items/s)",
                server.endpoint, count, bytes, filled, Double(count) / filled))

        let etcdctl = ["--endpoints", server.endpoint, "get", "--prefix", "\(EtcdBench.prefix)/"]
        var cases: [(name: String, body: () throws -> Double)] = [
            (
                "etcdctl get --prefix",
                {
                    try EtcdBench.timedRun(
                        "/usr/bin/etcdctl", etcdctl, environment: ["ETCDCTL_API": "3"])
                }
            ),
            ("store.load(), gRPC", { try timedLoad(server, count, .grpc) }),
            ("observer .initial, gRPC", { try timedInitial(server, count, .grpc) }),
            // The old transport beside the new (issue 29): the JSON gateway.
            ("store.load(), gateway", { try timedLoad(server, count, .gateway) }),
            ("observer .initial, gateway", { try timedInitial(server, count, .gateway) }),
            // Where the time goes: the client's range alone (in the store's pages of 1,000,
            // and in one), on each transport, and the gateway read by curl, which parses
            // nothing.
            ("range 1000s, gRPC", { try timedRange(client, count: count, pageSize: 1_000) }),
            ("range 1000s, gateway", { try timedRange(gateway, count: count, pageSize: 1_000) }),
            ("range one page, gRPC", { try timedRange(client, count: count, pageSize: 0) }),
            ("range one page, gateway", { try timedRange(gateway, count: count, pageSize: 0) }),
        ]
        // The command's listing, in a process of its own as etcdctl is, on each transport.
        let command = URL(fileURLWithPath: EtcdBench.executable).deletingLastPathComponent()
            .appendingPathComponent("jsonstore").path
        if FileManager.default.isExecutableFile(atPath: command) {
            let list = [
                "--store", "etcd://\(server.endpoint)/\(EtcdBench.prefix)", "list", "-o", "ndjson",
            ]
            cases.append(("list -o ndjson, gRPC", { try EtcdBench.timedRun(command, list) }))
            cases.append(
                (
                    "list -o ndjson, gateway",
                    { try EtcdBench.timedRun(command, ["--etcd-transport", "gateway"] + list) }
                ))
        }
        let curl = "/usr/bin/curl"
        if FileManager.default.isExecutableFile(atPath: curl) {
            let body =
                "{\"key\":\"\(Data("\(EtcdBench.prefix)/".utf8).base64EncodedString())\","
                + "\"range_end\":\"\(Data("\(EtcdBench.prefix)0".utf8).base64EncodedString())\"}"
            let arguments = [
                "-s", "-f", "-o", "/dev/null", "-X", "POST", "-d", body,
                "http://\(server.endpoint)/v3/kv/range",
            ]
            cases.append(
                ("curl, the gateway, one page", { try EtcdBench.timedRun(curl, arguments) }))
        }
        // A follower's memory on the same items, each transport, after the timed cases.
        let address = "etcd://\(server.endpoint)/\(EtcdBench.prefix)"
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("jsonstore-bench-etcd-load-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var memory: [(name: String, store: [String], mib: [Double])] = []
        if FileManager.default.isExecutableFile(atPath: command) {
            try EtcdFollowerMemory.writeDirectory(directory, count: count)
            memory = [
                ("etcd, gRPC", ["--etcd-transport", "grpc", "--store", address], []),
                ("etcd, gateway", ["--etcd-transport", "gateway", "--store", address], []),
                ("the same items as files", ["--dir", directory], []),
            ]
        }
        var times = cases.map { _ in [Double]() }
        for run in 0..<runs {
            for k in 0..<cases.count {
                let index = (run + k) % cases.count
                times[index].append(try cases[index].body())
            }
        }
        for run in 0..<runs {
            for k in memory.indices {
                let index = (run + k) % memory.count
                memory[index].mib.append(
                    try EtcdFollowerMemory.peakMiB(command: command, store: memory[index].store))
            }
        }
        server.stop()

        print("\(count) items, \(runs) runs of each, the order rotating (median, min-max)")
        for (k, entry) in cases.enumerated() {
            let ratio = median(times[k]) / median(times[0])
            print(
                "\(entry.name.padding(toLength: 28, withPad: " ", startingAt: 0)) "
                    + "\(spreadText(times[k]))"
                    + (k == 0 ? "" : String(format: "  %.2fx etcdctl", ratio)))
        }
        // Issue 29's targets: a load within 1.3x etcdctl, a follower's first event within
        // 1.5x; the gateway's beside them, and what gRPC gained over it.
        for (k, target) in [(1, 1.3), (2, 1.5), (3, 2), (4, 2)] {
            let ratio = median(times[k]) / median(times[0])
            tableRow(
                "etcd load \(count) items, \(cases[k].name)", spreadText(times[k]),
                String(format: "%.2fx etcdctl (%.3f s)", ratio, median(times[0])),
                String(format: "<= %.1fx", target), ratio <= target)
        }
        for k in 1...2 {
            tableRow(
                "etcd load \(count) items, \(cases[k].name) against the gateway",
                spreadText(times[k]),
                String(format: "%.2fx the gateway's", median(times[k]) / median(times[k + 2])),
                "-", nil)
        }
        if let k = cases.firstIndex(where: { $0.name == "list -o ndjson, gRPC" }) {
            let ratio = median(times[k]) / median(times[0])
            tableRow(
                "etcd \(count) items, jsonstore list -o ndjson, gRPC", spreadText(times[k]),
                String(
                    format: "%.2fx etcdctl, %.2fx the gateway's", ratio,
                    median(times[k]) / median(times[k + 1])), "<= 1.3x", ratio <= 1.3)
        }
        // The directory follower's budget (issue 28) for the same items' bytes.
        let values = bytes - count * "\(EtcdBench.prefix)/".utf8.count
        let budget = 1.5 * Double(values) / 1_048_576 + 30
        let files = memory.last.map { median($0.mib) } ?? 0
        for (name, _, mib) in memory where !mib.isEmpty {
            let text = String(
                format: "%.0f MiB (min %.0f, max %.0f)", median(mib), mib.min()!, mib.max()!)
            print("peak RSS of list --follow --json, \(name): \(text); budget \(Int(budget)) MiB")
            tableRow(
                "\(count) items, a follower's peak RSS to its first event, \(name)", text,
                String(
                    format: "%d kB of values; %.2fx the directory follower's", values / 1000,
                    median(mib) / files), String(format: "<= %.0f MiB", budget),
                median(mib) <= budget)
        }
        if let k = cases.firstIndex(where: { $0.name.hasPrefix("curl") }) {
            tableRow(
                "etcd load \(count) items, the JSON gateway alone (curl)", spreadText(times[k]),
                String(format: "%.2fx etcdctl", median(times[k]) / median(times[0])), "-", nil)
        }
    }

    /// Times `EtcdClient.range` of the prefix, the store's transport alone (no parse of
    /// the values), in pages of `pageSize` (0: the whole prefix in one answer).
    private static func timedRange(_ client: EtcdClient, count: Int, pageSize: Int) throws
        -> Double
    {
        let start = now()
        let found = try client.range(
            prefix: Array("\(EtcdBench.prefix)/".utf8), pageSize: pageSize)
        let elapsed = now() - start
        precondition(found.keyValues.count == count, "ranged \(found.keyValues.count)")
        return elapsed
    }

    /// A store on `server` whose clients speak `transport`.
    private static func store(_ server: EtcdServer, _ transport: EtcdClient.Transport) throws
        -> JSONStore
    {
        var address = EtcdAddress(
            endpoints: [EtcdBench.endpoint(server)], prefix: EtcdBench.prefix)
        address.transport = transport
        return try JSONStore(etcd: address)
    }

    /// Opens the store (not timed: a connection and a count), then times `load()`.
    private static func timedLoad(
        _ server: EtcdServer, _ count: Int, _ transport: EtcdClient.Transport
    ) throws -> Double {
        let store = try store(server, transport)
        let start = now()
        let contents = try store.load()
        let elapsed = now() - start
        precondition(contents.items.count == count, "loaded \(contents.items.count) of \(count)")
        return elapsed
    }

    /// Opens a fresh store (not timed), then times `observe` to its `.initial`.
    private static func timedInitial(
        _ server: EtcdServer, _ count: Int, _ transport: EtcdClient.Transport
    ) throws -> Double {
        final class Box: @unchecked Sendable {
            // Written on the observer's queue before `done` is signalled, read after.
            var count = 0
            var at = 0.0
            let done = DispatchSemaphore(value: 0)
        }
        let store = try store(server, transport)
        let box = Box()
        let start = now()
        let token = store.observe(on: DispatchQueue(label: "bench.etcd.initial")) { change in
            if case .initial(let results) = change {
                box.at = now()
                box.count = results.count
                box.done.signal()
            }
        }
        box.done.wait()
        token.invalidate()
        precondition(box.count == count, "observed \(box.count) of \(count)")
        return box.at - start
    }
}
