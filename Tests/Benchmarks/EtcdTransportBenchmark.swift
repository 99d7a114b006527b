import Dispatch
import Foundation
import FoundationNetworking
import Glibc
import JSONStore
import JSONStoreEtcd
import TestSupport

/// The etcd client's transport against the one it did not choose: the round trip of a
/// single-key `/v3/kv/range` by `EtcdClient` (HTTP/1.1 on a socket of its own) and by
/// FoundationNetworking's `URLSession` (libcurl), alternating on one etcd; then the
/// resident memory of a fresh process after its first request of each kind
/// (`Probe`), alternating too.
enum EtcdTransportBenchmark {
    /// `jsonstore-bench etcd-transport - REQUESTS RUNS`: REQUESTS round trips of each
    /// (after 20 of each not counted), RUNS fresh processes of each.
    static func run(requests: Int, runs: Int) throws {
        let server = try EtcdBench.startServer()
        let endpoint = EtcdBench.endpoint(server)
        let key = EtcdBench.key(EtcdBench.id(0))
        let client = EtcdClient(endpoints: [endpoint])
        try client.put(key, EtcdBench.value(0))
        let session = URLSessionClient(host: endpoint.host, port: endpoint.port, key: key)

        var ours: [Double] = []
        var curl: [Double] = []
        let warmUp = 20
        for k in 0..<(warmUp + requests) {
            var pair = [0.0, 0.0]
            for side in k % 2 == 0 ? [0, 1] : [1, 0] {
                let start = now()
                if side == 0 {
                    guard try client.get(key).keyValue != nil else { throw EtcdBenchError("none") }
                } else {
                    guard try session.range() == 1 else { throw EtcdBenchError("none") }
                }
                pair[side] = now() - start
            }
            guard k >= warmUp else { continue }
            ours.append(pair[0])
            curl.append(pair[1])
        }
        print("\(requests) single-key /v3/kv/range round trips of each, alternating")
        print("EtcdClient (raw socket):  \(EtcdBench.latencyText(ours))")
        print("URLSession (libcurl):     \(EtcdBench.latencyText(curl))")
        let ratio = EtcdBench.percentile(curl, 0.5) / EtcdBench.percentile(ours, 0.5)
        print(String(format: "URLSession p50 / EtcdClient p50: %.2fx", ratio))

        var probes: [[[String: Double]]] = [[], []]  // [EtcdClient, URLSession][run]
        for run in 0..<runs {
            for side in run % 2 == 0 ? [0, 1] : [1, 0] {
                probes[side].append(try probe(server.endpoint, urlSession: side == 1))
            }
        }
        let peaks = try peakResidentKiB(server.endpoint, runs: runs)
        server.stop()
        let names = ["EtcdClient", "URLSession"]
        let mib = { (kib: Double) in String(format: "%.1f", kib / 1024) }
        func med(_ side: Int, _ field: String) -> Double {
            median(probes[side].map { $0[field] ?? 0 })
        }
        print("fresh processes, \(runs) of each: MiB resident after the first request (median)")
        for side in 0..<2 {
            print(
                "\(names[side]): \(mib(med(side, "rss_after"))) MiB "
                    + "(\(mib(med(side, "rss_start"))) before it; Foundation and ICU "
                    + "\(mib(med(side, "foundation"))), FoundationNetworking "
                    + "\(mib(med(side, "networking"))), libcurl and its libraries "
                    + "\(mib(med(side, "curl"))), C and C++ runtimes \(mib(med(side, "system"))), "
                    + "Swift runtime and this program \(mib(med(side, "other"))), "
                    + "anonymous \(mib(med(side, "anonymous")))); "
                    + String(
                        format: "%.0f threads; first request %.2f ms", med(side, "threads"),
                        med(side, "first_ms")))
        }
        let libraries = { (side: Int) in
            med(side, "foundation") + med(side, "networking") + med(side, "curl")
        }
        print(
            "Foundation with ICU, FoundationNetworking and libcurl's libraries resident: "
                + "\(mib(libraries(1))) MiB after a URLSession request, \(mib(libraries(0))) MiB "
                + "only loaded (this program links them; one on EtcdClient alone maps none)")
        let extra = med(1, "rss_after") - med(0, "rss_after")
        print("URLSession's process holds \(mib(extra)) MiB more after its first request")
        if let command = peaks.command {
            print(
                "peak RSS of fresh processes (ru_maxrss): `jsonstore --store etcd://… get` "
                    + "(FoundationEssentials only, no FoundationNetworking) \(mib(command)) MiB; "
                    + "this program with EtcdClient \(mib(peaks.client)), with URLSession "
                    + "\(mib(peaks.session)): URLSession \(mib(peaks.session - command)) MiB "
                    + "over the command")
            tableRow(
                "peak RSS, one etcd request, fresh process",
                "URLSession \(mib(peaks.session)) MiB, jsonstore get \(mib(command)) MiB",
                "+\(mib(peaks.session - command)) MiB for URLSession", "-", nil)
        }
        tableRow(
            "etcd range round trip, p50",
            String(
                format: "URLSession %.3f ms, EtcdClient %.3f ms",
                EtcdBench.percentile(curl, 0.5) * 1000, EtcdBench.percentile(ours, 0.5) * 1000),
            String(format: "URLSession %.2fx", ratio), "-", nil)
        tableRow(
            "RSS after the first etcd request",
            "URLSession \(mib(med(1, "rss_after"))) MiB, EtcdClient "
                + "\(mib(med(0, "rss_after"))) MiB", "+\(mib(extra)) MiB for URLSession", "-",
            nil)
    }

    /// Medians of the peak RSS (KiB) of fresh processes making one request: the command
    /// built beside this program (`jsonstore --store etcd://… get`, which never loads
    /// FoundationNetworking; `nil` when it is not there), and this program's probe of each
    /// kind, alternating.
    private static func peakResidentKiB(_ endpoint: String, runs: Int) throws -> (
        command: Double?, client: Double, session: Double
    ) {
        let command = URL(fileURLWithPath: EtcdBench.executable).deletingLastPathComponent()
            .appendingPathComponent("jsonstore").path
        let hasCommand = FileManager.default.isExecutableFile(atPath: command)
        var peaks: [[Double]] = [[], [], []]
        for _ in 0..<runs {
            if hasCommand {
                let arguments = [
                    "--store", "etcd://\(endpoint)/\(EtcdBench.prefix)", "get", EtcdBench.id(0),
                ]
                peaks[0].append(Double(try EtcdBench.peakResidentKiB(running: command, arguments)))
            }
            for side in 0..<2 {
                let arguments = ["etcd-rss", endpoint, String(side), "1"]
                peaks[side + 1].append(
                    Double(try EtcdBench.peakResidentKiB(running: EtcdBench.executable, arguments)))
            }
        }
        return (hasCommand ? median(peaks[0]) : nil, median(peaks[1]), median(peaks[2]))
    }

    /// Runs `etcd-rss` in a fresh process and returns its fields.
    private static func probe(_ endpoint: String, urlSession: Bool) throws -> [String: Double] {
        let (status, text) = try EtcdBench.output(
            of: EtcdBench.executable, ["etcd-rss", endpoint, urlSession ? "1" : "0", "1"])
        guard status == 0, let line = text.split(separator: "\n").last,
            line.hasPrefix("probe ")
        else { throw EtcdBenchError("etcd-rss: \(text)") }
        var fields: [String: Double] = [:]
        for pair in line.dropFirst(6).split(separator: " ") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
        }
        return fields
    }
}

extension EtcdTransportBenchmark {
    /// The transport etcd's client did not choose, for `etcd-transport`: a single-key
    /// `/v3/kv/range` through FoundationNetworking's `URLSession` (libcurl underneath), its
    /// answer parsed with the same `JSONReader` as `EtcdClient`'s, so only the transport
    /// differs.
    ///
    /// One session, reused, so libcurl keeps the connection alive as `EtcdClient` does.
    final class URLSessionClient: @unchecked Sendable {
        // Immutable after init; URLSession is thread-safe.
        private let session: URLSession
        private let request: URLRequest

        /// Ranges `key` at `host:port`.
        init(host: String, port: UInt16, key: [UInt8]) {
            let configuration = URLSessionConfiguration.default
            configuration.timeoutIntervalForRequest = 5
            session = URLSession(configuration: configuration)
            var request = URLRequest(url: URL(string: "http://\(host):\(port)/v3/kv/range")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let body = "{\"key\":\"\(Data(key).base64EncodedString())\"}"
            request.httpBody = Data(body.utf8)
            self.request = request
        }

        /// What one request gave, handed from URLSession's queue to the caller.
        private final class Answer: @unchecked Sendable {
            // Written by the completion handler before `done` is signalled, read after.
            var data: Data?
            var status = 0
            var error: Error?
            let done = DispatchSemaphore(value: 0)
        }

        /// Sends the range and waits for its answer; returns how many keys it held.
        ///
        /// - Throws: the session's error, or `EtcdError` for an answer that is not etcd's.
        func range() throws -> Int {
            let answer = Answer()
            let task = session.dataTask(with: request) { data, response, error in
                answer.data = data
                answer.status = (response as? HTTPURLResponse)?.statusCode ?? 0
                answer.error = error
                answer.done.signal()
            }
            task.resume()
            answer.done.wait()
            if let error = answer.error { throw error }
            guard answer.status == 200, let data = answer.data,
                let value = try? JSONReader(maxDepth: 64, maxSize: .max).read([UInt8](data)),
                let kvs = value["kvs"]?.arrayValue
            else {
                throw EtcdBenchError("URLSession: etcd answered \(answer.status)")
            }
            return kvs.count
        }
    }
}
