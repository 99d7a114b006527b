import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

@Suite("Several writer processes")
struct ConcurrentWriterTests {
    @Test("4 processes × 250 updates of one counter end at exactly 1000", .timeLimit(.minutes(5)))
    func noLostUpdate() throws {
        let temp = try TemporaryStore()
        let workers = try (0..<4).map { _ in
            try HelperProcess.start(["increment", temp.path, "counter", "n", "250"])
        }
        for (process, _) in workers {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        #expect(try temp.store.item("counter")?["n"] == 1000)
        #expect(try temp.names().filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test("a writer killed with SIGKILL at random points, 200 times, never leaves a torn file",
          .timeLimit(.minutes(5)))
    func killedWriterLeavesWholeFiles() throws {
        let temp = try TemporaryStore()
        var random = SystemRandomNumberGenerator()
        var interrupted = 0
        var lastRound: [String: Int] = [:]
        for iteration in 0..<200 {
            let base = iteration * 1_000_000
            let (process, pipe) = try HelperProcess.start(["rewrite", temp.path, String(base)])
            let ready = pipe.fileHandleForReading.availableData
            #expect(String(decoding: ready, as: UTF8.self) == "ready\n")
            usleep(UInt32.random(in: 0...40_000, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)

            var changed = false
            for k in 0..<5 {
                let id = "r\(k)"
                guard let text = temp.readFile("\(id).json") else { continue }
                let value = try JSONValue(parsing: text)
                let round = try #require(value["round"]?.intValue, "\(id).json has no round")
                let expected = JSONWriter.pretty(.object(rewriteContent(id: id, round: round)))
                #expect(Array(text.utf8) == expected, "\(id).json is torn at round \(round)")
                if lastRound[id] != round { changed = true }
                lastRound[id] = round
            }
            if changed { interrupted += 1 }
            let stray = try temp.names().filter { !$0.hasPrefix(".") && !$0.hasPrefix("r") }
            #expect(stray.isEmpty)
        }
        // The writer really was writing when it was killed, in many of the runs.
        #expect(interrupted >= 50)
        // What the killed writers left behind is only our temp files, removed on open.
        var options = JSONStore.Options()
        options.staleTemporaryFileAge = -1
        _ = try JSONStore(directory: temp.path, options: options)
        #expect(try temp.names().filter { $0.hasSuffix(".tmp") }.isEmpty)
        let contents = try temp.store.load()
        #expect(contents.invalid.isEmpty)
        #expect(contents.items.map(\.id) == lastRound.keys.sorted())
    }
}
