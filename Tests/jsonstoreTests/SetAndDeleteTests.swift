import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// `set` with a dotted path sets the nested member, as `--where` reads it; `delete` of
/// several ids is one batch, finished by the next open if the process dies halfway.
@Suite("set's dotted paths and delete's batch")
struct SetAndDeleteTests {
    @Test("set owner.name=zed sets the nested member, creating objects on the way")
    func dottedPaths() async throws {
        let temp = try TemporaryStore()
        try temp.writeFile(
            "a.json", "{\n  \"title\": \"A\",\n  \"owner\": {\n    \"team\": \"x\"\n  }\n}\n")
        var result = try await jsonstore(temp, ["set", "a", "owner.name=zed", "meta.made.by:=1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            temp.readFile("a.json")
                == "{\n  \"title\": \"A\",\n  \"owner\": {\n    \"team\": \"x\",\n    \"name\": \"zed\"\n  },\n  \"meta\": {\n    \"made\": {\n      \"by\": 1\n    }\n  }\n}\n"
        )
        result = try await jsonstore(temp, ["list", "--where", "owner.name=zed", "-o", "ids"])
        #expect(result.stdout == "a\n")
        // A member on the way that is not an object: a clear error, the file untouched.
        let before = temp.readFile("a.json")
        result = try await jsonstore(temp, ["set", "a", "title.x=1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot set title.x: title is a string, not an object"))
        #expect(temp.readFile("a.json") == before)
        result = try await jsonstore(temp, ["set", "a", "owner..name=1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("empty member name"))
        #expect(temp.readFile("a.json") == before)
    }

    @Test("delete names the missing ids, deletes the others, exits 1")
    func missingIDs() async throws {
        let temp = try TemporaryStore.tasks()
        let result = try await jsonstore(temp, ["delete", "tea", "nope", "bike"])
        #expect(result.status == 1)
        #expect(result.stderr == "jsonstore: no item \"nope\" in \(temp.path)\n")
        #expect(try temp.itemFiles() == ["taxes.json"])
    }

    @Test(
        "delete of 40 ids killed with SIGKILL at 100 random moments: after the next open all or none",
        .timeLimit(.minutes(3)))
    func killedDelete() async throws {
        let ids = (0..<40).map { String(format: "item-%02d", $0) }
        @Sendable func filledStore() throws -> TemporaryStore {
            // Written directly: a batch this large would syncfs the whole file system,
            // slow while other tests write.
            let temp = try TemporaryStore()
            for id in ids { try temp.writeFile("\(id).json", "{\n  \"n\": 1\n}\n") }
            return temp
        }
        // How long an uninterrupted delete takes: the kills land anywhere within it.
        let timing = try filledStore()
        let start = Date()
        let whole = try await jsonstore(timing, ["delete"] + ids)
        #expect(whole.status == 0)
        let duration = Date().timeIntervalSince(start)
        // Blocking work (sleeps, waits for processes) on a thread of its own.
        let partial = try await blocking { () throws -> [Int] in
            var partial: [Int] = []
            for _ in 0..<100 {
                let temp = try filledStore()
                let process = Process()
                process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
                process.arguments = ["--dir", temp.path, "delete"] + ids
                try process.run()
                usleep(UInt32.random(in: 0...UInt32(duration * 1_000_000)))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                let left = try JSONStore(directory: temp.path).load().items.count
                if left != 0 && left != ids.count { partial.append(left) }
                if try temp.names().contains(".jsonstore-batch") { partial.append(-1) }
            }
            return partial
        }
        #expect(partial.isEmpty, "items left after a killed delete (-1: its journal): \(partial)")
    }
}
