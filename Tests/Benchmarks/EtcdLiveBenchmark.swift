import Dispatch
import Foundation
import JSONStore
import JSONStoreEtcd
import TestSupport

/// etcd put → observer callback, against a minimal raw watch client on the same puts.
///
/// The benchmark sends each put itself, one at a time (the time taken right before the
/// send), and waits until both the store's untyped observer and the raw client have seen
/// it: the raw client is a thread reading an `EtcdWatch` of the prefix directly, which is
/// the floor of any watcher (the same HTTP stream, one parse of each answer). Both
/// receive every put, so their medians are side by side by construction.
enum EtcdLiveBenchmark {
    /// A moment one side saw a put, handed from its thread to the one that sends them.
    final class Latch: @unchecked Sendable {
        // Written by the observing thread before `signal`, read after `wait`.
        var delivered = 0.0
        let semaphore = DispatchSemaphore(value: 0)

        func mark() {
            delivered = now()
            semaphore.signal()
        }

        func wait() -> Double {
            semaphore.wait()
            return delivered
        }
    }

    /// The raw client: a thread that reads the watch and marks each answer with events.
    final class RawWatcher: @unchecked Sendable {
        let latch = Latch()
        // Set once on the watcher's thread before `ready` is signalled.
        private var failure: Error?
        private let ready = DispatchSemaphore(value: 0)

        /// Starts watching `prefix` from `revision` on a thread of its own; returns once the
        /// watch exists. The thread lives as long as the process.
        init(_ endpoint: EtcdClient.Endpoint, prefix: [UInt8], from revision: Int64) throws {
            let thread = Thread { [self] in
                let watch: EtcdWatch
                do {
                    watch = try EtcdWatch(endpoint, prefix: prefix, from: revision)
                } catch {
                    failure = error
                    ready.signal()
                    return
                }
                ready.signal()
                while let response = try? watch.next(timeout: .infinity) {
                    if !response.events.isEmpty { latch.mark() }
                }
            }
            thread.start()
            ready.wait()
            if let failure { throw failure }
        }
    }

    /// `jsonstore-bench etcd-live - EDITS 1`: `edits` puts into a store of 1,000 items,
    /// after 20 that are not counted.
    static func run(edits: Int, items: Int = 1_000) throws {
        let server = try EtcdBench.startServer()
        let endpoint = EtcdBench.endpoint(server)
        let client = EtcdClient(endpoints: [endpoint])
        try EtcdBench.fill(client, count: items)

        let store = try JSONStore(etcd: [server.endpoint], prefix: EtcdBench.prefix)
        let observed = Latch()
        let queue = DispatchQueue(label: "bench.etcd.observer")
        let token = store.observe(on: queue) { change in
            switch change {
            case .initial, .update: observed.mark()
            case .error(let error): print("bench: observer error: \(error)")
            }
        }
        let start = now()
        _ = observed.wait()  // .initial
        print(
            String(
                format: "etcd at %@, %d items: the observer's initial results in %.3f s",
                server.endpoint, items, now() - start))

        let revision = try client.get(EtcdBench.key(EtcdBench.id(0))).revision
        let raw = try RawWatcher(
            endpoint, prefix: Array("\(EtcdBench.prefix)/".utf8), from: revision + 1)

        let warmUp = 20
        var ours: [Double] = []
        var floor: [Double] = []
        var putTrips: [Double] = []
        for edit in 0..<(warmUp + edits) {
            let i = (edit * 7919) % items
            let value = EtcdBench.value(i, edit: edit)
            let sent = now()
            try client.put(EtcdBench.key(EtcdBench.id(i)), value)
            let answered = now()
            let rawSaw = raw.latch.wait()
            let weSaw = observed.wait()
            guard edit >= warmUp else { continue }
            putTrips.append(answered - sent)
            floor.append(rawSaw - sent)
            ours.append(weSaw - sent)
        }
        token.invalidate()
        server.stop()
        report(ours: ours, floor: floor, putTrips: putTrips)
    }

    private static func report(ours: [Double], floor: [Double], putTrips: [Double]) {
        print("\(ours.count) puts, one at a time, each seen by both before the next")
        print("put round trip (etcd's answer):  \(EtcdBench.latencyText(putTrips))")
        print("put → raw watch client:          \(EtcdBench.latencyText(floor))")
        print("put → observer callback:         \(EtcdBench.latencyText(ours))")
        let ratio = EtcdBench.percentile(ours, 0.5) / EtcdBench.percentile(floor, 0.5)
        print(String(format: "observer p50 / raw client p50: %.2fx (target <= 1.5x)", ratio))
        tableRow(
            "etcd put -> observer, p50 (p99)",
            String(
                format: "%.3f ms (%.3f), raw client %.3f ms (%.3f)",
                EtcdBench.percentile(ours, 0.5) * 1000, EtcdBench.percentile(ours, 0.99) * 1000,
                EtcdBench.percentile(floor, 0.5) * 1000, EtcdBench.percentile(floor, 0.99) * 1000),
            String(format: "%.2fx the raw client", ratio), "<= 1.5x", ratio <= 1.5)
    }
}
