import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// Four writer processes doing every kind of operation while three observers follow: two
/// library observers with different queries and `jsonstore list --follow --json`. At rest,
/// every observer equals the directory, the directory equals each writer's record of its
/// last successful write, and the shared counter holds every increment.
@Suite("Load: writers and observers")
struct LoadTests {
    /// Operations per writer: 800 in the suite; JSONSTORE_LOAD_OPS=5000 for the big run.
    static let operations = ProcessInfo.processInfo.environment["JSONSTORE_LOAD_OPS"] ?? "800"

    @Test(
        "4 writers × 800 operations, 3 observers: all converge on the directory",
        .timeLimit(.minutes(10)))
    func mixedLoad() async throws {
        let temp = try TemporaryStore()
        let path = temp.path
        let all = ChangeRecorder()
        let even = ChangeRecorder(sortField: "op", descending: true)
        let evenQuery = Query.all.filter { ($0["op"]?.intValue ?? 1) % 2 == 0 }.sorted(
            by: "op", descending: true)
        let tokens = [
            temp.store.observe(on: DispatchQueue(label: "load.all"), all.callback),
            temp.store.observe(evenQuery, on: DispatchQueue(label: "load.even"), even.callback),
        ]
        #expect(await all.wait { $0.initialCount == 1 })

        let follower = Process()
        follower.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
        follower.arguments = ["--dir", path, "list", "--follow", "--json"]
        let pipe = ChildOutput.pipe()
        follower.standardOutput = pipe
        try follower.run()
        defer { follower.terminate() }
        let mirror = NDJSONMirror()
        Thread.detachNewThread { for line in HelperProcess.lines(of: pipe) { mirror.apply(line) } }

        let reports = try await blocking {
            let writers = try (0..<4).map { k in
                try HelperProcess.start([
                    "mixed", path, String(k + 11), Self.operations, String(k), "4", "40",
                ])
            }
            return writers.map { process, pipe in
                let output = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return (process.terminationStatus, String(decoding: output, as: UTF8.self))
            }
        }
        #expect(reports.allSatisfy { $0.0 == 0 }, "\(reports.map(\.1))")
        await temp.store.synchronize()

        // The directory equals the writers' records; the counter has every increment.
        let contents = try temp.store.load()
        let onDisk = Dictionary(uniqueKeysWithValues: contents.items.map { ($0.id, $0) })
        let invalidNames = Set(contents.invalid.map(\.name))
        var increments = 0
        for (_, report) in reports {
            for line in report.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
                switch parts[0] {
                case "put": #expect(onDisk[parts[1]]?["title"]?.stringValue == parts[2], "\(line)")
                case "gone":
                    #expect(
                        onDisk[parts[1]] == nil && !invalidNames.contains(parts[1] + ".json"),
                        "\(line)")
                case "invalid": #expect(invalidNames.contains(parts[1] + ".json"), "\(line)")
                case "increments": increments += Int(parts[1])!
                default: Issue.record("unexpected report line \(line)")
                }
            }
        }
        #expect(onDisk["counter"]?["n"]?.intValue == increments)

        // Each library observer equals the directory (an invalid file keeps its last value,
        // flagged), and followed the rules all along.
        for (recorder, query) in [(all, Query.all), (even, evenQuery)] {
            let state = recorder.current
            #expect(state.violations.isEmpty, "\(state.violations.prefix(3))")
            let valid = state.results.filter { state.results.error(for: $0.id) == nil }
            #expect(valid.map(\.id) == query.apply(to: contents.items).map(\.id))
            #expect(valid.allSatisfy { onDisk[$0.id]?.object == $0.object })
            #expect(Set(state.results.invalid.map(\.name)) == invalidNames)
        }
        // The NDJSON follower (another process, a pipeline of its own), rebuilt from its
        // stream alone, comes to equal the first observer on every valid file. (An invalid
        // file stays in a pipeline's results with the last valid value that pipeline read,
        // if it read one since the file was created: two pipelines that coalesced the
        // edits differently may each be right and differ there.)
        let valid: @Sendable ([JSONValue]) -> [JSONValue] = { items in
            items.filter { !invalidNames.contains(($0["id"]?.stringValue ?? "") + ".json") }
        }
        let expected = valid(all.current.results.map { JSONValue.object($0.object) })
        let converged = await ObservationLifetimeTests.eventually {
            valid(mirror.items) == expected
        }
        #expect(
            converged,
            "the stream shows \(valid(mirror.items).count) valid items, the observer \(expected.count)"
        )
        #expect(mirror.problems.isEmpty)
        for token in tokens { token.invalidate() }
    }
}
