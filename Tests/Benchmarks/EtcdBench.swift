import Foundation
import Glibc
import JSONStore
import JSONStoreEtcd
import TestSupport

/// What the etcd benchmarks share: a real etcd of their own, the store's prefix and keys,
/// the items they write, percentiles and the process's resident memory.
///
/// Every case starts its own single-member etcd (`EtcdServer`, free loopback ports, a
/// temporary data directory) and stops it at the end, so a run never meets another's keys.
enum EtcdBench {
    /// The store's key prefix: item `item-000001` is the key `tasks/item-000001`.
    static let prefix = "tasks"

    /// Starts an etcd, or exits with the hint on a machine without one.
    static func startServer() throws -> EtcdServer {
        guard EtcdServer.isInstalled else {
            print("bench: \(EtcdServer.installHint)")
            exit(1)
        }
        return try EtcdServer()
    }

    /// The server's client endpoint, as `EtcdClient` and `EtcdWatch` take it.
    static func endpoint(_ server: EtcdServer) -> EtcdClient.Endpoint {
        .init(host: "127.0.0.1", port: server.clientPort)
    }

    /// `host:port` as an endpoint (a writer process receives it as an argument).
    static func endpoint(parsing text: String) -> EtcdClient.Endpoint {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1]) else {
            print("bench: not host:port: \(text)")
            exit(64)
        }
        return .init(host: String(parts[0]), port: port)
    }

    /// The id of the benchmark's `i`th item, as the directory benchmarks name them.
    static func id(_ i: Int) -> String { String(format: "item-%06d", i) }

    /// The etcd key of item `id`.
    static func key(_ id: String) -> [UInt8] { Array("\(prefix)/\(id)".utf8) }

    /// The value of the `i`th item as a file holds it (pretty, trailing newline), with an
    /// `"edit"` member when `edit` is given and a `"sent"` member (monotonic seconds) when
    /// `sent` is.
    static func value(_ i: Int, edit: Int? = nil, sent: Double? = nil) -> [UInt8] {
        var object = item(i)
        if let edit { object["edit"] = .number(JSONNumber(edit)) }
        if let sent { object["sent"] = .number(JSONNumber(sent)) }
        return JSONWriter.pretty(.object(object))
    }

    /// Writes items `0..<count` in transactions of 128 puts (etcd's default limit of
    /// operations a transaction); returns the seconds it took.
    @discardableResult
    static func fill(_ client: EtcdClient, count: Int) throws -> Double {
        let start = now()
        var next = 0
        while next < count {
            let batch = (next..<min(next + 128, count)).map {
                EtcdClient.Operation(key: key(id($0)), value: value($0))
            }
            _ = try client.transaction(expecting: [], batch)
            next += batch.count
        }
        return now() - start
    }

    /// The `fraction` percentile (nearest rank) of `values`.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[max(0, min(sorted.count - 1, rank))]
    }

    /// `p50 A ms (p90 B, p99 C, max D)` of latencies in seconds.
    static func latencyText(_ values: [Double]) -> String {
        String(
            format: "p50 %.3f ms (p90 %.3f, p99 %.3f, max %.3f)", percentile(values, 0.5) * 1000,
            percentile(values, 0.9) * 1000, percentile(values, 0.99) * 1000,
            values.max()! * 1000)
    }

    /// This process's resident memory (`VmRSS`), in KiB.
    static func residentKiB() -> Int { statusField("VmRSS:") }

    /// This process's peak resident memory (`VmHWM`), in KiB.
    static func peakResidentKiB() -> Int { statusField("VmHWM:") }

    private static func statusField(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
        return 0
    }

    /// The path of this program, to run it again as a helper process.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
    }

    /// Runs `path` with `arguments` (stdout to `/dev/null`) and returns its peak resident
    /// memory in KiB, the kernel's `ru_maxrss` of that one child.
    ///
    /// The child is started by a small `python3`, as `scripts/bench.d/process.sh` does: a
    /// child spawned from this process itself (`posix_spawn`, a vfork) would report this
    /// process's peak, which the kernel carries across its `exec`.
    static func peakResidentKiB(running path: String, _ arguments: [String]) throws -> Int {
        let script = """
            import resource, subprocess, sys
            subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let (status, text) = try output(
            of: "/usr/bin/env", ["python3", "-c", script, path] + arguments)
        guard status == 0, let kib = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw EtcdBenchError("\(path) \(arguments): \(text)") }
        return kib
    }

    /// Runs `arguments` with stdout to `/dev/null` and returns the seconds it took.
    static func timedRun(
        _ path: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        process.environment = merged
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let start = now()
        try process.run()
        process.waitUntilExit()
        let elapsed = now() - start
        guard process.terminationStatus == 0 else {
            throw EtcdBenchError("\(path) \(arguments) exited \(process.terminationStatus)")
        }
        return elapsed
    }
}

/// A benchmark's own failure, with what it saw.
struct EtcdBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension EtcdBench {
    /// Runs `executable` with `arguments` to its end: its exit status and its stdout.
    static func output(of executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(
            decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
