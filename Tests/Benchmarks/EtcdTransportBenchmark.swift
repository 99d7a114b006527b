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

    /// Runs `etcd-rss` in a fresh process and returns its fields.
    private static func probe(_ endpoint: String, urlSession: Bool) throws -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: EtcdBench.executable)
        process.arguments = ["etcd-rss", endpoint, urlSession ? "1" : "0", "1"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(
            decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let line = text.split(separator: "\n").last,
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

extension EtcdTransportBenchmark {
    /// One fresh process of `etcd-transport`'s memory measure: a single range by `URLSession`
    /// or by `EtcdClient`, then this process's resident memory, by where it lives.
    ///
    /// Both kinds run this same program, which links FoundationNetworking (for the other
    /// kind), so the pages the dynamic linker touches to load it are in both; what using it
    /// costs is the difference between the two, read from `/proc/self/smaps` by mapping:
    /// Foundation with ICU (which FoundationNetworking needs, and the etcd target does not
    /// load), FoundationNetworking itself, libcurl with the libraries it pulls in (TLS,
    /// Kerberos, LDAP, SSH, compression: every system library but the C and C++ runtimes),
    /// those runtimes, the Swift runtime and this program ("other"), and anonymous memory.
    enum Probe {
        /// `jsonstore-bench etcd-rss HOST:PORT 0|1 1`: prints one line of `name=value`s (KiB,
        /// and the first request's milliseconds).
        static func run(endpoint text: String, urlSession: Bool) throws {
            let endpoint = EtcdBench.endpoint(parsing: text)
            let key = EtcdBench.key(EtcdBench.id(0))
            let before = EtcdBench.residentKiB()
            let start = now()
            if urlSession {
                let client = URLSessionClient(host: endpoint.host, port: endpoint.port, key: key)
                guard try client.range() == 1 else { throw EtcdBenchError("no key") }
                report(before: before, first: now() - start)
                withExtendedLifetime(client) {}
            } else {
                let client = EtcdClient(endpoints: [endpoint])
                guard try client.get(key).keyValue != nil else { throw EtcdBenchError("no key") }
                report(before: before, first: now() - start)
                withExtendedLifetime(client) {}
            }
        }

        private static func report(before: Int, first: Double) {
            let groups = residentByMapping()
            var fields = [
                "rss_start=\(before)", "rss_after=\(EtcdBench.residentKiB())",
                String(format: "first_ms=%.3f", first * 1000), "threads=\(threads())",
            ]
            for name in ["foundation", "networking", "curl", "system", "anonymous", "other"] {
                fields.append("\(name)=\(groups[name, default: 0])")
            }
            print("probe " + fields.joined(separator: " "))
        }

        /// Resident KiB by kind of mapping, from `/proc/self/smaps`.
        static func residentByMapping() -> [String: Int] {
            // Read to its end: the file's size says 0, and one read returns a page of it.
            guard let file = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return [:] }
            let smaps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
            try? file.close()
            var groups: [String: Int] = [:]
            var group = "anonymous"
            for line in smaps.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard let first = fields.first else { continue }
                if first.contains("-") && !first.hasSuffix(":") {
                    // A mapping's header: range, perms, offset, device, inode, [path].
                    group = kind(fields.count >= 6 ? String(fields[5]) : "")
                } else if first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
                    groups[group, default: 0] += kib
                }
            }
            return groups
        }

        private static func kind(_ path: String) -> String {
            if path.isEmpty || path.hasPrefix("[") { return "anonymous" }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if name.hasPrefix("libFoundationNetworking") { return "networking" }
            if name.hasPrefix("libFoundation.so") || name.hasPrefix("libFoundationInternational")
                || name.hasPrefix("lib_FoundationICU")
            {
                return "foundation"
            }
            guard path.hasPrefix("/lib/") || path.hasPrefix("/usr/lib/") else { return "other" }
            let runtime = ["libc.so", "libm.so", "libstdc++.so", "libgcc_s.so", "ld-linux"]
            return runtime.contains { name.hasPrefix($0) } ? "system" : "curl"
        }

        private static func threads() -> Int {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            else { return 0 }
            let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
            return line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0
        }
    }
}
