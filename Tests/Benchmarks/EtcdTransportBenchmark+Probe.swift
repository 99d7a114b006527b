import Foundation
import Glibc
import JSONStore
import JSONStoreEtcd

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
