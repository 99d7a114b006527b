import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

@Suite("Several writer processes")
struct ConcurrentWriterTests {
    @Test("4 processes × 250 updates of one counter end at exactly 1000", .timeLimit(.minutes(5)))
    func noLostUpdate() async throws {
        let temp = try TemporaryStore()
        let path = temp.path
        let statuses = try await blocking {
            let workers = try (0..<4).map { _ in
                try HelperProcess.start(["increment", path, "counter", "n", "250"])
            }
            return workers.map { process, _ in
                process.waitUntilExit()
                return process.terminationStatus
            }
        }
        #expect(statuses == [0, 0, 0, 0])
        #expect(try temp.store.item("counter")?["n"] == 1000)
        #expect(try temp.names().filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test(
        "a writer killed with SIGKILL at random points, 200 times, never leaves a torn file",
        .timeLimit(.minutes(5)))
    func killedWriterLeavesWholeFiles() async throws {
        let temp = try TemporaryStore()
        let path = temp.path
        // Each run: start the writer, let it write for a random while, kill it, then check
        // every item file. Problems are collected and checked below.
        let (problems, interrupted, written) = try await blocking {
            () throws -> ([String], Int, [String]) in
            var random = SystemRandomNumberGenerator()
            var problems: [String] = []
            var interrupted = 0
            var lastRound: [String: Int] = [:]
            for iteration in 0..<200 {
                let (process, pipe) = try HelperProcess.start([
                    "rewrite", path, String(iteration * 1_000_000),
                ])
                let ready = pipe.fileHandleForReading.availableData
                if String(decoding: ready, as: UTF8.self) != "ready\n" {
                    problems.append("no ready line")
                }
                // Up to 150 ms of its write loop (the worker warms up before "ready"): a
                // write of these 64 KiB items records both versions of the payload in the
                // history too, and a debug build in the whole suite's company is slow.
                usleep(UInt32.random(in: 0...150_000, using: &random))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                if process.terminationReason != .uncaughtSignal {
                    problems.append("the writer was not killed")
                }
                var changed = false
                for k in 0..<5 {
                    let id = "r\(k)"
                    guard let data = FileManager.default.contents(atPath: path + "/\(id).json")
                    else { continue }
                    guard let value = try? JSONReader().read(Array(data)),
                        let round = value["round"]?.intValue
                    else {
                        problems.append("\(id).json does not parse in run \(iteration)")
                        continue
                    }
                    if Array(data)
                        != JSONWriter.pretty(.object(rewriteContent(id: id, round: round)))
                    {
                        problems.append("\(id).json is torn at round \(round)")
                    }
                    if lastRound[id] != round { changed = true }
                    lastRound[id] = round
                }
                if changed { interrupted += 1 }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                let stray = names.filter { !$0.hasPrefix(".") && !$0.hasPrefix("r") }
                if !stray.isEmpty { problems.append("stray files \(stray)") }
            }
            return (problems, interrupted, lastRound.keys.sorted())
        }
        #expect(problems == [])
        // The writer really was writing when it was killed, in many of the runs.
        #expect(interrupted >= 20, "\(interrupted) runs wrote something")
        // What the killed writers left behind is only our temp files, removed by a write.
        var options = JSONStore.Options()
        options.staleTemporaryFileAge = -1
        try JSONStore(directory: temp.path, options: options).write { _ in }
        #expect(try temp.names().filter { $0.hasSuffix(".tmp") }.isEmpty)
        let contents = try temp.store.load()
        #expect(contents.invalid.isEmpty)
        #expect(contents.items.map(\.id) == written)
    }
}
