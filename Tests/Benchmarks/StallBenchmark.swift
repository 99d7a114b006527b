import Foundation
import Glibc
import JSONStore

// A reader that stops reading: `jsonstore list --follow --json` with its stdout a pipe that
// nobody reads, while items are rewritten steadily. Its memory must stay bounded by its
// results (later changes merge while an update is stuck), not grow with every edit.

/// The resident memory of process `pid`, in bytes (from /proc), or 0.
func residentBytes(of pid: pid_t) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return kilobytes * 1024
}

func benchStall(directory: String, count: Int, seconds: Int) throws {
    try fill(directory, count: count)
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("jsonstore").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["--dir", directory, "list", "--follow", "--json"]
    let pipe = Pipe()  // never read: the writes block once the pipe is full
    process.standardOutput = pipe
    try process.run()
    defer { process.terminate() }
    let store = try JSONStore(directory: directory)
    Thread.sleep(forTimeInterval: 1)
    let start = residentBytes(of: process.processIdentifier)
    var samples: [Int] = []
    var rewrites = 0
    let end = now() + Double(seconds)
    var nextSample = now() + 1
    while now() < end {
        var object = item(rewrites)
        object["round"] = .number(JSONNumber(rewrites))
        try store.put(String(format: "item-%06d", rewrites % count), object)
        rewrites += 1
        if now() >= nextSample {
            samples.append(residentBytes(of: process.processIdentifier))
            nextSample += 1
        }
    }
    let mb = { (bytes: Int) in Double(bytes) / 1_048_576 }
    print("items: \(count), rewrites: \(rewrites) in \(seconds) s, reader stalled throughout")
    print(
        String(
            format:
                "jsonstore list --follow --json RSS: start %.1f MiB, max %.1f MiB, end %.1f MiB",
            mb(start), mb(samples.max() ?? 0), mb(samples.last ?? 0)))
}
