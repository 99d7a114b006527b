import Foundation
import Glibc
import JSONStore

/// Edit → follower latency against the floor of any watcher: `jsonstore list --follow
/// --json` (its `update` line) against `inotifywait`, a process that does nothing but read
/// the kernel's events and print each name. Each edit (a file renamed over an item, as
/// `sed -i` does) is timed to all three lines at once, so all see the same machine: the
/// follower keeping no history (`--no-history`: the pipeline alone), and the follower as
/// it runs by default, whose lines wait for the journal to record each change (an append
/// and its `fdatasync`) so their revisions are the journal's. For `scripts/bench guard`,
/// which fails when a ratio of the medians is over its limit.
///
///   jsonstore-bench inotify-floor DIR N EDITS   (the command: `$JSONSTORE_BIN`, or the
///                                               `jsonstore` built beside this program)
enum InotifyFloorBenchmark {
    static func run(directory: String, count: Int, edits: Int) throws {
        let path = directory + "/inotify-floor"
        try fill(path, count: count)
        let command =
            ProcessInfo.processInfo.environment["JSONSTORE_BIN"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("jsonstore").path
        let inotifywait = try LineTimes(
            "/usr/bin/env", ["inotifywait", "-m", "-e", "moved_to", "--format", "%f", path],
            ready: .stderr("Watches established"), marks: "")
        defer { inotifywait.stop() }
        let started = now()
        let follower = try LineTimes(
            command, ["--dir", path, "--no-history", "list", "--follow", "--json"],
            ready: .line(#"{"event":"initial""#), marks: #"{"event":"update""#)
        defer { follower.stop() }
        let journaled = try LineTimes(
            command, ["--dir", path, "list", "--follow", "--json"],
            ready: .line(#"{"event":"initial""#), marks: #"{"event":"update""#)
        defer { journaled.stop() }
        print(
            String(
                format: "%d items: the follower's initial event after %.3f s", count,
                now() - started))

        var ours: [Double] = []
        var recorded: [Double] = []
        var floor: [Double] = []
        for edit in 0..<edits {
            var object = item(edit)
            object["edit"] = .number(JSONNumber(edit))
            let target = String(format: "item-%06d", (edit * 7919) % count)
            let start = saveByRename(object, as: target, in: path)
            floor.append(inotifywait.next() - start)
            ours.append(follower.next() - start)
            recorded.append(journaled.next() - start)
        }
        let ratio = median(ours) / median(floor)
        let recordedRatio = median(recorded) / median(floor)
        print(
            String(
                format:
                    "edit → follower line: median %.3f ms (p90 %.3f); inotifywait: median %.3f ms (p90 %.3f); %d edits",
                median(ours) * 1000, percentile(ours, 0.9) * 1000, median(floor) * 1000,
                percentile(floor, 0.9) * 1000, edits))
        print(
            String(
                format: "with the journal: median %.3f ms (p90 %.3f)", median(recorded) * 1000,
                percentile(recorded, 0.9) * 1000))
        print(String(format: "follower / inotifywait: %.3f", ratio))
        print(String(format: "journaled follower / inotifywait: %.3f", recordedRatio))
        tableRow(
            "edit -> list --follow --json line, p50, \(count) items",
            String(format: "%.3f ms", median(ours) * 1000),
            String(format: "%.2fx inotifywait (%.3f ms)", ratio, median(floor) * 1000), "<= 6x",
            ratio <= 6)
        tableRow(
            "edit -> list --follow --json line, journal recorded, p50, \(count) items",
            String(format: "%.3f ms", median(recorded) * 1000),
            String(format: "%.2fx inotifywait", recordedRatio), "<= 15x", recordedRatio <= 15)
    }

    private static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    /// A process whose stdout lines starting with `marks` are timed as they arrive, by a
    /// thread of its own; `next()` waits for the next one.
    ///
    /// `@unchecked Sendable`: the thread writes a time before each signal, `next()` reads it
    /// after its wait.
    final class LineTimes: @unchecked Sendable {
        enum Ready {
            case stderr(String)
            case line(String)
        }
        private let process = Process()
        private let arrived = DispatchSemaphore(value: 0)
        private var times: [Double] = []
        private var taken = 0

        init(_ executable: String, _ arguments: [String], ready: Ready, marks: String) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let readyLine = DispatchSemaphore(value: 0)
            let fd = out.fileHandleForReading.fileDescriptor
            let marks = Array(marks.utf8)
            var awaited: [UInt8]? = nil
            if case .line(let prefix) = ready { awaited = Array(prefix.utf8) }
            Thread { [self, awaited] in
                var readyPrefix = awaited
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                var head: [UInt8] = []  // the first bytes of the line being read
                while true {
                    let n = read(fd, &chunk, chunk.count)
                    let at = now()
                    guard n > 0 else { return }
                    for byte in chunk[..<n] {
                        if byte != 0x0A {
                            if head.count < 24 { head.append(byte) }
                            continue
                        }
                        if let prefix = readyPrefix, head.starts(with: prefix) {
                            readyPrefix = nil
                            readyLine.signal()
                        } else if head.starts(with: marks) {
                            times.append(at)
                            arrived.signal()
                        }
                        head.removeAll(keepingCapacity: true)
                    }
                }
            }.start()
            switch ready {
            case .line: readyLine.wait()
            case .stderr(let text):
                var said = Data()
                while !String(decoding: said, as: UTF8.self).contains(text) {
                    let more = err.fileHandleForReading.availableData
                    guard !more.isEmpty else {
                        fatalError("\(executable) ended: \(String(decoding: said, as: UTF8.self))")
                    }
                    said.append(more)
                }
            }
        }

        /// When the next marked line arrived.
        func next() -> Double {
            arrived.wait()
            taken += 1
            return times[taken - 1]
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
