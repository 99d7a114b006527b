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

    @Test("an item with a top-level member named owner.name: set changes that one")
    func literalDottedMember() async throws {
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{\n  \"owner.name\": \"x\"\n}\n")
        let result = try await jsonstore(temp, ["set", "a", "owner.name=zed"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(temp.readFile("a.json") == "{\n  \"owner.name\": \"zed\"\n}\n")
        let found = try await jsonstore(temp, ["list", "--where", "owner.name=zed", "-o", "ids"])
        #expect(found.stdout == "a\n")
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
        // Blocking work (sleeps, waits for processes) on a thread of its own.
        let (partial, rounds) = try await blocking { () throws -> ([Int], Int) in
            // Spawned and reaped directly: a kill in the child's first microseconds must
            // not leave the wait hanging (`SpawnedChild`).
            func start(_ temp: TemporaryStore) throws -> SpawnedChild {
                try SpawnedChild.start(JSONStoreBinary.path, ["--dir", temp.path, "delete"] + ids)
            }
            // How long an uninterrupted delete takes here and now: the kills land anywhere
            // within it (capped, so a loaded machine cannot stretch the test).
            let timing = try filledStore()
            let began = Date()
            try start(timing).wait()
            let duration = min(Date().timeIntervalSince(began), 0.5)
            var partial: [Int] = []
            var rounds = 0
            let deadline = Date().addingTimeInterval(90)
            while rounds < 100 && Date() < deadline {
                rounds += 1
                let temp = try filledStore()
                let child = try start(temp)
                usleep(UInt32.random(in: 0...UInt32(duration * 1_000_000)))
                child.kill()
                child.wait()
                let left = try JSONStore(directory: temp.path).load().items.count
                if left != 0 && left != ids.count { partial.append(left) }
                if try temp.names().contains(".jsonstore-batch") { partial.append(-1) }
            }
            return (partial, rounds)
        }
        #expect(rounds >= 10)
        #expect(partial.isEmpty, "items left after a killed delete (-1: its journal): \(partial)")
    }
}
