import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

@Suite("Writing items")
struct StoreWritingTests {
    @Test("put writes 2-space pretty JSON without an id member, mode 0644")
    func putFormat() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["id": "a", "title": "Tea", "tags": ["x"]])
        #expect(
            temp.readFile("a.json")
                == "{\n  \"title\": \"Tea\",\n  \"tags\": [\n    \"x\"\n  ]\n}\n")
        #expect(temp.status("a.json").st_mode & 0o7777 == 0o644)
        let item = try #require(try temp.store.item("a"))
        #expect(item.object.keys == ["id", "title", "tags"])
        #expect(item["id"] == "a")
    }

    @Test("replacing keeps the file's member order and appends new members")
    func keepsOrder() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{\"zeta\": 1, \"alpha\": 2, \"mid\": 3}")
        try temp.store.put("a", ["alpha": 20, "new": true, "zeta": 10])
        #expect(
            temp.readFile("a.json") == "{\n  \"zeta\": 10,\n  \"alpha\": 20,\n  \"new\": true\n}\n")
        try temp.store.update("a") {
            $0["zeta"] = 11
            $0["extra"] = "e"
        }
        #expect(try temp.store.item("a")?.object.keys == ["id", "zeta", "alpha", "new", "extra"])
    }

    @Test("an existing file's mode is kept")
    func keepsMode() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{}")
        chmod(temp.path + "/a.json", 0o600)
        try temp.store.put("a", ["x": 1])
        #expect(temp.status("a.json").st_mode & 0o7777 == 0o600)
    }

    @Test("identical content is not rewritten")
    func identicalIsNoWrite() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["x": 1])
        let before = temp.status("a.json")
        try temp.store.put("a", ["x": 1])
        try temp.store.update("a") { $0["x"] = 1 }
        let after = temp.status("a.json")
        #expect(before.st_ino == after.st_ino)
        #expect(before.st_mtim.tv_nsec == after.st_mtim.tv_nsec)
    }

    @Test("a mismatched id member is refused and nothing is written")
    func idMismatch() throws {
        let temp = try TemporaryStore()
        #expect(throws: StoreError.self) { try temp.store.put("a", ["id": "b"]) }
        #expect(temp.readFile("a.json") == nil)
    }

    @Test(
        "update: missing is notFound unless a start value is given; a throwing body writes nothing")
    func updateSemantics() throws {
        let temp = try TemporaryStore()
        #expect(throws: StoreError.self) { try temp.store.update("a") { $0["x"] = 1 } }
        do {
            try temp.store.update("a") { $0["x"] = 1 }
        } catch StoreError.Code.notFound {
        } catch { Issue.record("expected notFound, got \(error)") }
        try temp.store.update("a", orCreate: ["count": 0]) { $0["count"] = 1 }
        #expect(try temp.store.item("a")?["count"] == 1)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try temp.store.update("a") {
                $0["count"] = 2
                throw Stop()
            }
        }
        #expect(try temp.store.item("a")?["count"] == 1)
    }

    @Test("update of an invalid file fails with its error and leaves it alone")
    func updateInvalid() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{\"x\": }")
        do {
            try temp.store.update("a") { $0["x"] = 1 }
            Issue.record("updated an invalid file")
        } catch let error as StoreError {
            #expect(error.code == .invalidJSON)
            #expect(error.line == 1 && error.column == 7)
            #expect(error.description.hasSuffix("a.json:1:7: expected a value, found '}'"))
        }
        #expect(temp.readFile("a.json") == "{\"x\": }")
    }

    @Test("typed put, get and update")
    func typed() throws {
        let temp = try TemporaryStore()
        let task = Task(
            id: "tea", title: "Make tea", status: .todo, priority: 2, tags: [], due: nil,
            estimate: nil)
        try temp.store.put(task)
        #expect(temp.readFile("tea.json")?.contains("\"id\"") == false)
        #expect(try temp.store.item("tea", as: Task.self) == task)
        let done = try temp.store.update("tea", as: Task.self) { $0.status = .done }
        #expect(done.status == .done)
        #expect(try temp.store.item("tea", as: Task.self)?.status == .done)
        try temp.writeFile("bad.json", "{\"title\": 3}")
        do {
            _ = try temp.store.item("bad", as: Task.self)
            Issue.record("decoded a bad task")
        } catch {
            #expect(error.code == .invalidItem)
            #expect(error.file == temp.path + "/bad.json")
            #expect(error.message.contains("title"))
        }
    }

    @Test("delete reports whether the item existed")
    func delete() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["x": 1])
        #expect(try temp.store.delete("a"))
        #expect(try !temp.store.delete("a"))
        #expect(temp.readFile("a.json") == nil)
    }

    @Test("a batch sees its own writes and writes nothing if its body throws")
    func batch() throws {
        let temp = try TemporaryStore()
        try temp.store.put("keep", ["x": 1])
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try temp.store.write { tx in
                try tx.put("new", ["y": 2])
                try tx.delete("keep")
                throw Abort()
            }
        }
        #expect(try temp.names().filter { $0.hasSuffix(".json") } == ["keep.json"])

        let seen = try temp.store.write { tx -> JSONValue? in
            try tx.put("new", ["y": 2])
            try tx.update("new") { $0["y"] = 3 }
            #expect(try tx.delete("keep"))
            #expect(try tx.item("keep") == nil)
            return try tx.item("new")?["y"]
        }
        #expect(seen == 3)
        #expect(try temp.names().filter { !$0.hasPrefix(".") } == ["new.json"])
        #expect(try temp.names().allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test("a large batch (synced at once) writes every item whole, replacing and deleting too")
    func largeBatch() throws {
        let temp = try TemporaryStore()
        try temp.store.put("old", ["x": 1])
        try temp.store.put("gone", ["x": 1])
        let count = Transaction.fileSystemSyncThreshold * 4
        try temp.store.write { tx in
            for i in 0..<count { try tx.put("item-\(i)", ["n": .number(JSONNumber(i))]) }
            try tx.update("old") { $0["x"] = 2 }
            try tx.delete("gone")
        }
        let items = try temp.store.load().items
        #expect(items.count == count + 1)
        #expect(items.first { $0.id == "old" }?["x"] == 2)
        for i in 0..<count {
            let text = try String(contentsOfFile: temp.path + "/item-\(i).json", encoding: .utf8)
            #expect(text == "{\n  \"n\": \(i)\n}\n")
        }
        #expect(try temp.names().allSatisfy { !$0.hasSuffix(".tmp") && $0 != "gone.json" })
    }

    @Test("a dictionary literal of strings is written in the order it is written")
    func literalOrder() throws {
        let temp = try TemporaryStore()
        let keys = (0..<12).map { "k\(11 - $0)" }
        // All strings: the literal could also be a [String: String], which is Encodable
        // but unordered; the JSONObject overload must win.
        try temp.store.put(
            "x",
            [
                "k11": "a", "k10": "b", "k9": "c", "k8": "d", "k7": "e", "k6": "f",
                "k5": "g", "k4": "h", "k3": "i", "k2": "j", "k1": "k", "k0": "l",
            ])
        #expect(try temp.store.item("x")?.object.keys.dropFirst().map { $0 } == keys)
        try temp.store.write { tx in
            try tx.put(
                "y",
                [
                    "k11": "a", "k10": "b", "k9": "c", "k8": "d", "k7": "e", "k6": "f",
                    "k5": "g", "k4": "h", "k3": "i", "k2": "j", "k1": "k", "k0": "l",
                ])
        }
        #expect(try temp.store.item("y")?.object.keys.dropFirst().map { $0 } == keys)
    }

    @Test(
        "stale temp files of ours are removed by the first write, not on open; other files are not")
    func staleTemporaryFiles() throws {
        let temp = try TemporaryStore()
        let ours = ".jsonstore-0123456789abcdef.tmp"
        let fresh = ".jsonstore-fedcba9876543210.tmp"
        let similar = [".jsonstore-notours.tmp", ".jsonstore-0123456789abcdef.tmp.keep", "x.tmp"]
        for name in [ours, fresh] + similar { try temp.writeFile(name, "half") }
        var old = [
            timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0),
        ]
        for name in [ours] + similar {
            #expect(utimensat(AT_FDCWD, temp.path + "/" + name, &old, 0) == 0)
        }

        let store = try JSONStore(directory: temp.path)
        _ = try store.item("x")
        #expect(try temp.names().contains(ours))  // reading lists nothing
        try store.put("x", ["n": 1])
        let names = try temp.names()
        #expect(!names.contains(ours))
        #expect(names.contains(fresh))
        for name in similar { #expect(names.contains(name)) }
    }

    @Test("opening a missing directory fails clearly, or creates it when asked")
    func openMissing() throws {
        let temp = try TemporaryStore()
        let missing = temp.path + "/nope"
        do {
            _ = try JSONStore(directory: missing)
            Issue.record("opened a missing directory")
        } catch {
            #expect(
                error
                    == StoreError(
                        code: .storeUnavailable, message: "the store directory does not exist",
                        file: missing))
        }
        var options = JSONStore.Options()
        options.createDirectory = true
        let store = try JSONStore(directory: missing, options: options)
        try store.put("a", ["x": 1])
        #expect(try store.load().items.map(\.id) == ["a"])
    }

    @Test("threads of one process lose no update")
    func threadsLoseNoUpdate() async throws {
        let temp = try TemporaryStore()
        let store = temp.store
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<50 {
                        try store.update("counter", orCreate: ["n": 0]) {
                            $0["n"] = .number(JSONNumber($0["n"]!.intValue! + 1))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.item("counter")?["n"] == 200)
    }
}
