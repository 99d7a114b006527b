import Dispatch
import Foundation
import JSONStore
import JSONStoreEtcd
import TestSupport

/// The initial load of a large prefix from etcd: `store.load()` and an observer's first
/// `.initial`, against `etcdctl get --prefix` of the same keys (a client nobody here
/// wrote, its output thrown away), each run of the three in a rotating order.
enum EtcdLoadBenchmark {
    /// `jsonstore-bench etcd-load - N RUNS`.
    static func run(count: Int, runs: Int) throws {
        let server = try EtcdBench.startServer()
        let client = EtcdClient(endpoints: [EtcdBench.endpoint(server)])
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
            ("store.load()", { try timedLoad(server, count: count) }),
            ("observer .initial", { try timedInitial(server, count: count) }),
            // Where the time goes: the store's range alone (in its pages of 1,000, and in
            // others), and the JSON gateway read by curl, which parses nothing.
            ("range, pages of 1000", { try timedRange(client, count: count, pageSize: 1_000) }),
            ("range, pages of 10000", { try timedRange(client, count: count, pageSize: 10_000) }),
            ("range, one page", { try timedRange(client, count: count, pageSize: 0) }),
            // The same ranges over etcd's gRPC API (issue 29), a connection made each run.
            ("gRPC range, pages of 1000", { try timedGRPCRange(server, count, pageSize: 1_000) }),
            ("gRPC range, one page", { try timedGRPCRange(server, count, pageSize: 0) }),
        ]
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
        var times = cases.map { _ in [Double]() }
        for run in 0..<runs {
            for k in 0..<cases.count {
                let index = (run + k) % cases.count
                times[index].append(try cases[index].body())
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
        for k in 1..<3 {
            let ratio = median(times[k]) / median(times[0])
            tableRow(
                "etcd load \(count) items, \(cases[k].name)", spreadText(times[k]),
                String(format: "%.2fx etcdctl (%.3f s)", ratio, median(times[0])), "<= 2x",
                ratio <= 2)
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

    /// Connects over gRPC (timed: as the gateway's client connects in its range), then
    /// times the prefix's range.
    private static func timedGRPCRange(_ server: EtcdServer, _ count: Int, pageSize: Int) throws
        -> Double
    {
        let start = now()
        let connection = try GRPCConnection.connect(host: "127.0.0.1", port: server.clientPort)
        defer { connection.close() }
        let found = try connection.range(
            prefix: Array("\(EtcdBench.prefix)/".utf8), pageSize: pageSize)
        let elapsed = now() - start
        precondition(found.keyValues.count == count, "ranged \(found.keyValues.count)")
        return elapsed
    }

    /// Opens the store (not timed: a connection and a count), then times `load()`.
    private static func timedLoad(_ server: EtcdServer, count: Int) throws -> Double {
        let store = try JSONStore(etcd: [server.endpoint], prefix: EtcdBench.prefix)
        let start = now()
        let contents = try store.load()
        let elapsed = now() - start
        precondition(contents.items.count == count, "loaded \(contents.items.count) of \(count)")
        return elapsed
    }

    /// Opens a fresh store (not timed), then times `observe` to its `.initial`.
    private static func timedInitial(_ server: EtcdServer, count: Int) throws -> Double {
        final class Box: @unchecked Sendable {
            // Written on the observer's queue before `done` is signalled, read after.
            var count = 0
            var at = 0.0
            let done = DispatchSemaphore(value: 0)
        }
        let store = try JSONStore(etcd: [server.endpoint], prefix: EtcdBench.prefix)
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
