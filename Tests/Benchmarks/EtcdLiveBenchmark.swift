import Dispatch
import Foundation
import Glibc
import JSONStore
import JSONStoreEtcd
import TestSupport

/// etcd put → observer callback, against `etcdctl watch --prefix` and minimal raw watch
/// clients on the same puts.
///
/// The benchmark sends each put itself, one at a time (the time taken right before the
/// send), and in a first phase waits until the store's untyped observer, `etcdctl watch` (a client nobody
/// here wrote, in its own process), the raw clients and the command's NDJSON stream
/// (`jsonstore --store etcd://… list --follow --json`, in its own process) have all seen
/// it: a raw client is a thread reading an `EtcdWatch` of the prefix directly, over gRPC
/// (the floor of any watcher here: one parse of each answer) and over the JSON gateway
/// (the old transport, beside it), and a second store's observer over the gateway. All
/// receive every put, so their medians are side by
/// side by construction. A second phase stops all but the observer and `etcdctl watch`:
/// the pair the target names, neither sharing the machine's two cores with readers the
/// other does not have.
enum EtcdLiveBenchmark {
    /// A moment one side saw a put, handed from its thread to the one that sends them.
    final class Latch: @unchecked Sendable {
        // Written by the observing thread before `signal`, read after `wait`.
        var delivered = 0.0
        let semaphore = DispatchSemaphore(value: 0)

        func mark(at time: Double = now()) {
            delivered = time
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
        private var watch: EtcdWatch?
        private let ready = DispatchSemaphore(value: 0)

        /// Starts watching `prefix` from `revision` on a thread of its own; returns once the
        /// watch exists. The thread lives as long as the process.
        init(_ target: EtcdWatch.Target, prefix: [UInt8], from revision: Int64) throws {
            let thread = Thread { [self] in
                let watch: EtcdWatch
                do {
                    watch = try EtcdWatch(target, prefix: prefix, from: revision)
                } catch {
                    failure = error
                    ready.signal()
                    return
                }
                self.watch = watch
                ready.signal()
                while let response = try? watch.next(timeout: .infinity) {
                    if !response.events.isEmpty { latch.mark() }
                }
            }
            thread.start()
            ready.wait()
            if let failure { throw failure }
        }

        /// Ends the watch: its thread reads no more.
        func stop() { watch?.interrupt() }
    }

    /// `etcdctl watch --prefix`, its stdout read by a thread that marks each event's
    /// `PUT` line as it arrives.
    final class EtcdctlWatcher: @unchecked Sendable {
        let latch = Latch()
        private let process = Process()

        /// Starts watching `prefix` from `revision`; returns once etcdctl has started (its
        /// first event is the first put sent after).
        init(endpoint: String, prefix: String, from revision: Int64) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/etcdctl")
            process.arguments = [
                "--endpoints", endpoint, "watch", "--prefix", prefix, "--rev", String(revision),
            ]
            process.environment = ["ETCDCTL_API": "3"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // The pipe is the thread's until its end of file: released with this object, its
            // read end would be closed under the thread's `read`, by then another number.
            let thread = Thread { [latch, output] in
                let fd = output.fileHandleForReading.fileDescriptor
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                var line: [UInt8] = []
                while true {
                    let count = read(fd, &chunk, chunk.count)
                    let arrived = now()
                    guard count > 0 else { return }
                    for byte in chunk[..<count] {
                        guard byte == 0x0A else {
                            if line.count < 8 { line.append(byte) }
                            continue
                        }
                        if line == Array("PUT".utf8) { latch.mark(at: arrived) }
                        line.removeAll(keepingCapacity: true)
                    }
                }
            }
            thread.start()
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The command as a follower: `jsonstore --store etcd://… list --follow --json`, its
    /// stdout read by a thread that marks each `update` line as its end arrives.
    final class NDJSONFollower: @unchecked Sendable {
        let latch = Latch()
        private let process = Process()

        /// Starts the command built beside this program and returns once it has written
        /// its initial event; `nil` when there is no such command.
        init?(store address: String) throws {
            let path = URL(fileURLWithPath: EtcdBench.executable).deletingLastPathComponent()
                .appendingPathComponent("jsonstore").path
            guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = ["--store", address, "list", "--follow", "--json"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let initial = DispatchSemaphore(value: 0)
            // The pipe is the thread's until its end of file: released with this object, its
            // read end would be closed under the thread's `read`, by then another number.
            let thread = Thread { [latch, output] in
                let fd = output.fileHandleForReading.fileDescriptor
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                var head: [UInt8] = []  // the first bytes of the line being read
                while true {
                    let count = read(fd, &chunk, chunk.count)
                    let arrived = now()
                    guard count > 0 else { return }
                    for byte in chunk[..<count] {
                        if byte != 0x0A {
                            if head.count < 24 { head.append(byte) }
                            continue
                        }
                        let start = String(decoding: head, as: UTF8.self)
                        if start.hasPrefix(#"{"event":"initial""#) { initial.signal() }
                        if start.hasPrefix(#"{"event":"update""#) { latch.mark(at: arrived) }
                        head.removeAll(keepingCapacity: true)
                    }
                }
            }
            thread.start()
            initial.wait()
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// `jsonstore-bench etcd-live - EDITS 1`: `edits` puts into a store of 1,000 items,
    /// after 20 that are not counted.
    static func run(edits: Int, items: Int = 1_000) throws {
        let server = try EtcdBench.startServer()
        let endpoint = EtcdBench.endpoint(server)
        let client = EtcdClient(endpoints: [endpoint], transport: .grpc)
        let gateway = EtcdClient(endpoints: [endpoint], transport: .gateway)
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

        // The same observer on a store that speaks the JSON gateway: the old transport.
        var gatewayAddress = EtcdAddress(endpoints: [endpoint], prefix: EtcdBench.prefix)
        gatewayAddress.transport = .gateway
        let gatewayStore = try JSONStore(etcd: gatewayAddress)
        let observedGateway = Latch()
        let gatewayToken = gatewayStore.observe(on: DispatchQueue(label: "bench.etcd.gateway")) {
            switch $0 {
            case .initial, .update: observedGateway.mark()
            case .error(let error): print("bench: gateway observer error: \(error)")
            }
        }
        _ = observedGateway.wait()  // .initial

        let address = "etcd://\(server.endpoint)/\(EtcdBench.prefix)"
        let follower = try NDJSONFollower(store: address)
        if follower == nil { print("bench: no jsonstore beside this program: no NDJSON figures") }
        let revision = try client.get(EtcdBench.key(EtcdBench.id(0))).revision
        let prefix = Array("\(EtcdBench.prefix)/".utf8)
        let raw = try RawWatcher(client.watchTarget(), prefix: prefix, from: revision + 1)
        let rawGateway = try RawWatcher(gateway.watchTarget(), prefix: prefix, from: revision + 1)
        let etcdctl = try EtcdctlWatcher(
            endpoint: server.endpoint, prefix: "\(EtcdBench.prefix)/", from: revision + 1)

        // Every reader at once: each put seen by all of them, on two cores.
        let all = try measure(edits: edits, items: items) { edit in
            let i = (edit * 7919) % items
            let sent = now()
            try client.put(EtcdBench.key(EtcdBench.id(i)), EtcdBench.value(i, edit: edit))
            let answered = now()
            return [
                answered, raw.latch.wait(), rawGateway.latch.wait(), etcdctl.latch.wait(),
                observed.wait(), follower?.latch.wait() ?? .nan, observedGateway.wait(),
            ].map { $0 - sent }
        }
        gatewayToken.invalidate()
        raw.stop()
        rawGateway.stop()
        follower?.stop()
        // The pair the target names alone: the store's observer and `etcdctl watch`, so
        // neither shares the cores with readers the other does not have.
        let pair = try measure(edits: edits, items: items, first: warmUp + edits) { edit in
            let i = (edit * 7919) % items
            let sent = now()
            try client.put(EtcdBench.key(EtcdBench.id(i)), EtcdBench.value(i, edit: edit))
            return [etcdctl.latch.wait(), observed.wait()].map { $0 - sent }
        }
        token.invalidate()
        etcdctl.stop()
        server.stop()
        let (putTrips, floor, floorGateway, theirs, ours, lines, oursGateway) = (
            all[0], all[1], all[2], all[3], all[4], all[5].filter { !$0.isNaN }, all[6]
        )
        print("\(ours.count) puts, one at a time, each seen by every reader before the next")
        print("put round trip (etcd's answer):  \(EtcdBench.latencyText(putTrips))")
        print("put → etcdctl watch --prefix:    \(EtcdBench.latencyText(theirs))")
        print("put → raw watch client, gRPC:    \(EtcdBench.latencyText(floor))")
        print("put → raw watch client, gateway: \(EtcdBench.latencyText(floorGateway))")
        print("put → observer callback:         \(EtcdBench.latencyText(ours))")
        print("put → observer callback, gateway: \(EtcdBench.latencyText(oursGateway))")
        report(
            "observer, every reader at once", ours, against: theirs, "etcdctl watch", target: nil)
        report("observer, gRPC", ours, against: oursGateway, "observer, gateway", target: nil)
        report("raw gRPC watch", floor, against: floorGateway, "raw gateway watch", target: nil)
        if !lines.isEmpty {
            print("put → NDJSON line (list --follow --json): \(EtcdBench.latencyText(lines))")
            report("NDJSON line", lines, against: theirs, "etcdctl watch", target: nil)
        }
        print("then \(pair[1].count) more puts seen by the observer and etcdctl watch alone")
        print("put → etcdctl watch --prefix:    \(EtcdBench.latencyText(pair[0]))")
        print("put → observer callback:         \(EtcdBench.latencyText(pair[1]))")
        report("observer", pair[1], against: pair[0], "etcdctl watch", target: 1.2)
    }

    /// Puts made before each phase's are counted.
    private static let warmUp = 20

    /// Makes `warmUp` + `edits` puts with `put` (given the edit's number, from `first`),
    /// one at a time; returns, for each figure `put` gives (seconds since its send), the
    /// values of the counted puts.
    private static func measure(
        edits: Int, items: Int, first: Int = 0, _ put: (Int) throws -> [Double]
    ) throws -> [[Double]] {
        var figures: [[Double]] = []
        for edit in first..<(first + warmUp + edits) {
            let seen = try put(edit)
            guard edit >= first + warmUp else { continue }
            if figures.isEmpty { figures = seen.map { _ in [] } }
            for (k, value) in seen.enumerated() { figures[k].append(value) }
        }
        return figures
    }

    /// A table row of `ours` against `floor`, the side-by-side ratio of their medians.
    private static func report(
        _ name: String, _ ours: [Double], against floor: [Double], _ floorName: String,
        target: Double?
    ) {
        let ratio = EtcdBench.percentile(ours, 0.5) / EtcdBench.percentile(floor, 0.5)
        print(String(format: "%@ p50 / %@ p50: %.2fx", name, floorName, ratio))
        tableRow(
            "etcd put -> \(name), p50 (p99)",
            String(
                format: "%.3f ms (%.3f), %@ %.3f ms (%.3f)",
                EtcdBench.percentile(ours, 0.5) * 1000, EtcdBench.percentile(ours, 0.99) * 1000,
                floorName, EtcdBench.percentile(floor, 0.5) * 1000,
                EtcdBench.percentile(floor, 0.99) * 1000),
            String(format: "%.2fx %@", ratio, floorName),
            target.map { String(format: "<= %.1fx", $0) } ?? "-", target.map { ratio <= $0 })
    }
}
