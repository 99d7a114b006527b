import Dispatch
import Foundation
import JSONStore
import JSONStoreEtcd
import TestSupport

/// A follower under a steady stream of writes from another process: `RATE` operations a
/// second for `SECONDS` (`Writer`, this program run again), an untyped observer
/// here. Measured: the gaps between its updates, how far behind the writes it is (each
/// value carries the monotonic time it was sent), that it converges on what etcd holds
/// at the end, and this process's resident memory over the run.
enum EtcdRateBenchmark {
    /// What the observer's callbacks record; confined to the observer's queue.
    ///
    /// Its arrays are made and written whole before the run, so that filling them adds
    /// nothing to the resident memory measured (53,000 updates are 0.8 MB of them).
    final class Recorder: @unchecked Sendable {
        private(set) var updates: [Double]
        private(set) var lags: [Double]
        private(set) var count = (updates: 0, lags: 0)
        var changes = 0
        var latest = Results<Item>()
        let initial = DispatchSemaphore(value: 0)

        init(capacity: Int) {
            updates = Array(repeating: 0, count: capacity)
            lags = Array(repeating: 0, count: capacity)
        }

        private func append(_ value: Double, to array: inout [Double], _ count: inout Int) {
            if count < array.count { array[count] = value } else { array.append(value) }
            count += 1
        }

        /// The update times and lags recorded.
        var recorded: (updates: [Double], lags: [Double]) {
            (Array(updates.prefix(count.updates)), Array(lags.prefix(count.lags)))
        }

        func record(_ change: StoreChange<Item>) {
            switch change {
            case .initial(let results):
                latest = results
                initial.signal()
            case .update(let results, let changeSet):
                let at = now()
                append(at, to: &updates, &count.updates)
                latest = results
                changes +=
                    changeSet.insertions.count + changeSet.deletions.count
                    + changeSet.modifications.count
                let sent = (changeSet.inserted + changeSet.modified.map(\.new)).compactMap {
                    $0["sent"]?.doubleValue
                }
                if let newest = sent.max() { append(at - newest, to: &lags, &count.lags) }
            case .error(let error):
                print("bench: observer error: \(error)")
            }
        }
    }

    /// `jsonstore-bench etcd-rate - RATE SECONDS`.
    static func run(rate: Int, seconds: Int, items: Int = 1_000) throws {
        let server = try EtcdBench.startServer()
        let client = EtcdClient(endpoints: [EtcdBench.endpoint(server)])
        try EtcdBench.fill(client, count: items)
        let store = try JSONStore(etcd: [server.endpoint], prefix: EtcdBench.prefix)
        let recorder = Recorder(capacity: rate * seconds + rate * seconds / 10 + 1_000)
        let queue = DispatchQueue(label: "bench.etcd.follower")
        let token = store.observe(on: queue) { recorder.record($0) }
        recorder.initial.wait()
        var rss = [EtcdBench.residentKiB()]

        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: EtcdBench.executable)
        writer.arguments = ["etcd-writer", server.endpoint, String(rate), String(seconds)]
        let output = Pipe()
        writer.standardOutput = output
        let started = now()
        try writer.run()
        while writer.isRunning {
            usleep(250_000)
            rss.append(EtcdBench.residentKiB())
        }
        let written = String(
            decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stopped = now()
        print(written.trimmingCharacters(in: .whitespacesAndNewlines))
        guard writer.terminationStatus == 0 else { throw EtcdBenchError(written) }

        let synchronized = DispatchSemaphore(value: 0)
        Task {
            await store.synchronize()
            synchronized.signal()
        }
        synchronized.wait()
        let caughtUp = now()
        rss.append(EtcdBench.residentKiB())
        let (updates, lags, changes, latest) = queue.sync {
            (recorder.recorded.updates, recorder.recorded.lags, recorder.changes, recorder.latest)
        }
        token.invalidate()
        let final = try client.range(prefix: Array("\(EtcdBench.prefix)/".utf8))
        let converged = same(latest, final.keyValues)
        server.stop()

        let during = updates.filter { $0 >= started && $0 <= stopped }
        let gaps = zip(during.dropFirst(), during).map { $0 - $1 }
        print(
            String(
                format:
                    "observer: %d updates (%d changed rows) while the writer ran %.1f s; "
                    + "caught up %.3f s after it ended",
                during.count, changes, stopped - started, caughtUp - stopped))
        print("gap between updates: \(EtcdBench.latencyText(gaps))")
        print("write sent → observer (newest in each update): \(EtcdBench.latencyText(lags))")
        print(
            "converged: \(converged ? "yes" : "NO"): \(latest.count) items observed, "
                + "\(final.keyValues.count) in etcd at revision \(final.revision)")
        let mib = { (kib: Int) in String(format: "%.1f", Double(kib) / 1024) }
        print(
            "observer process RSS: \(mib(rss.first!)) MiB at the start, "
                + "\(mib(rss.max()!)) MiB at most, \(mib(rss.last!)) MiB at the end "
                + "(\(rss.count) samples, 4 a second; peak VmHWM "
                + "\(mib(EtcdBench.peakResidentKiB())) MiB)")
        let quarters = (0...4).map { rss[min(rss.count - 1, $0 * (rss.count - 1) / 4)] }
        print("RSS at each quarter of the run: \(quarters.map(mib).joined(separator: ", ")) MiB")
        let p99 = EtcdBench.percentile(gaps, 0.99)
        tableRow(
            "etcd \(rate) puts/s for \(seconds) s, gap between updates",
            String(
                format: "p50 %.1f ms, p99 %.1f ms", EtcdBench.percentile(gaps, 0.5) * 1000,
                p99 * 1000),
            String(format: "p99 %.1f ms", p99 * 1000), "<= 250 ms", p99 <= 0.25)
        tableRow(
            "etcd \(rate) puts/s, converged and RSS",
            "\(latest.count) items; \(mib(rss.first!)) -> \(mib(rss.max()!)) max -> "
                + "\(mib(rss.last!)) MiB", converged ? "equal to a final range" : "differs",
            "converges", converged)
    }

    /// Whether the observer's results are exactly what etcd holds: the same ids in the same
    /// order, each with the members of the key's value.
    private static func same(_ results: Results<Item>, _ keyValues: [EtcdClient.KeyValue])
        -> Bool
    {
        guard results.count == keyValues.count else { return false }
        let skip = EtcdBench.prefix.utf8.count + 1
        for (item, kv) in zip(results, keyValues) {
            guard item.id == String(decoding: kv.key.dropFirst(skip), as: UTF8.self),
                let object = try? JSONReader().read(kv.value).objectValue,
                object == item.members
            else { return false }
        }
        return results.invalid.isEmpty
    }
}

extension EtcdRateBenchmark {
    /// The writer process of `etcd-rate`: puts (and a delete in ten) at a steady rate, on a
    /// schedule, for a number of seconds, over a few connections of its own, so the observer
    /// it is measured against shares nothing with it but etcd.
    ///
    /// Operation `k` is due at `k / rate` seconds after the start; a thread that is behind
    /// sends at once. Item `i = k × 7919 mod 2,000` is written (ids of the 1,000 items the
    /// store starts with and 1,000 more, so puts create, update and re-create items), each
    /// value carrying the monotonic time it was sent (`"sent"`), which the observer reads to
    /// see how far behind etcd it is.
    enum Writer {
        /// How many connections share the schedule: one put at a time on one connection, each
        /// waiting for etcd's fsync, would not reach 1,000 a second.
        static let connections = 4
        /// The ids written: `item-000000` to `item-001999`.
        static let keySpace = 2_000

        /// What the threads report, guarded by its lock.
        private struct Tally {
            var puts = 0
            var deletes = 0
            var trips: [Double] = []
            var behind = 0.0
            var failure: String?
        }

        /// `jsonstore-bench etcd-writer HOST:PORT RATE SECONDS`: prints one line, `writer: …`.
        static func run(endpoint text: String, rate: Int, seconds: Int) throws {
            let endpoint = EtcdBench.endpoint(parsing: text)
            let total = rate * seconds
            let tally = Locked(Tally())
            let group = DispatchGroup()
            let start = now() + 0.05
            for lane in 0..<connections {
                group.enter()
                let thread = Thread {
                    defer { group.leave() }
                    let client = EtcdClient(endpoints: [endpoint])
                    var trips: [Double] = []
                    var (puts, deletes, behind) = (0, 0, 0.0)
                    for k in stride(from: lane, to: total, by: connections) {
                        let due = start + Double(k) / Double(rate)
                        let wait = due - now()
                        if wait > 0 {
                            usleep(UInt32(wait * 1e6))
                        } else {
                            behind = max(behind, -wait)
                        }
                        let i = (k * 7919) % keySpace
                        let key = EtcdBench.key(EtcdBench.id(i))
                        let sent = now()
                        do {
                            if k % 10 == 9 {
                                try client.delete(key)
                                deletes += 1
                            } else {
                                try client.put(key, EtcdBench.value(i, edit: k, sent: sent))
                                puts += 1
                            }
                        } catch {
                            tally.withLock { $0.failure = "\(error)" }
                            return
                        }
                        trips.append(now() - sent)
                    }
                    tally.withLock {
                        $0.puts += puts
                        $0.deletes += deletes
                        $0.trips += trips
                        $0.behind = max($0.behind, behind)
                    }
                }
                thread.start()
            }
            group.wait()
            let elapsed = now() - start
            let result = tally.withLock { $0 }
            if let failure = result.failure {
                print("writer: failed: \(failure)")
                exit(1)
            }
            print(
                String(
                    format:
                        "writer: %d puts and %d deletes in %.2f s (%.0f a second) on %d connections, "
                        + "at most %.1f ms behind schedule; round trip %@",
                    result.puts, result.deletes, elapsed,
                    Double(result.puts + result.deletes) / elapsed, connections,
                    result.behind * 1000, EtcdBench.latencyText(result.trips)))
        }
    }
}
