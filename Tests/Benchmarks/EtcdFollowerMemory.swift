import Foundation
import Glibc

/// The memory of a follower of a store on etcd (issue 29): `jsonstore --store etcd://…
/// list --follow --json` in a process of its own, its peak resident memory (`VmHWM`) once
/// its initial event is out, against the directory follower's budget for the same items
/// (issue 28: 1.5 × their bytes + 30 MiB).
enum EtcdFollowerMemory {
    /// The same items as files of a directory (`ID.json`, each value's bytes): the
    /// directory follower beside the etcd one.
    static func writeDirectory(_ path: String, count: Int) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for i in 0..<count {
            try Data(EtcdBench.value(i)).write(
                to: URL(fileURLWithPath: "\(path)/\(EtcdBench.id(i)).json"))
        }
    }

    /// The peak resident memory, in MiB, of `command` with `store` (`--store etcd://…` or
    /// `--dir DIR`, and any global option) following it to its first event.
    static func peakMiB(command: String, store: [String]) throws -> Double {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("jsonstore-bench-follow-\(getpid()).ndjson").path
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = store + ["list", "--follow", "--json"]
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        // The initial event ends with its list of invalid values (a status line may come
        // before it while the store loads).
        let deadline = Date().addingTimeInterval(120)
        var read: UInt64 = 0
        while !holds(output, Array(#""invalid":"#.utf8), from: &read) {
            guard Date() < deadline, process.isRunning else {
                throw EtcdBenchError("no initial event from \(command) \(process.arguments!)")
            }
            usleep(20_000)
        }
        usleep(500_000)  // what it does right after the event counts too
        let status = try String(
            contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kib = line.split(separator: " ", omittingEmptySubsequences: true)[1]
            return (Double(kib) ?? 0) / 1024
        }
        throw EtcdBenchError("no VmHWM for \(process.processIdentifier)")
    }

    /// Whether the file at `path` holds `marker` yet, reading only what was written
    /// since the last look (`offset`, moved on): the follower being measured writes tens of
    /// megabytes, which must not be read again at every look.
    private static func holds(_ path: String, _ marker: [UInt8], from offset: inout UInt64)
        -> Bool
    {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        // A marker may straddle two looks: its length less one byte is read again.
        let start = offset > UInt64(marker.count) ? offset - UInt64(marker.count - 1) : 0
        guard (try? handle.seek(toOffset: start)) != nil,
            let fresh = try? handle.readToEnd().map(Array.init), !fresh.isEmpty
        else { return false }
        offset = start + UInt64(fresh.count)
        return fresh.withUnsafeBufferPointer { bytes in
            var at = 0
            while at + marker.count <= bytes.count {
                if bytes[at] == marker[0], bytes[at..<at + marker.count].elementsEqual(marker) {
                    return true
                }
                at += 1
            }
            return false
        }
    }
}
