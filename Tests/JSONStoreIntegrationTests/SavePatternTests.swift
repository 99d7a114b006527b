import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// The save patterns of real tools, reproduced with real file operations; each must reach
/// observers as exactly the expected typed change.
@Suite("Save patterns of real tools")
struct SavePatternTests {
    static let newB = "{\n  \"title\": \"B2\",\n  \"rank\": 1\n}\n"

    /// Expects exactly one update, modifying only `id` to `title`.
    func expectOneModification(_ updates: [ChangeSet<Item>], _ id: String, title: String) {
        #expect(updates.count == 1, "updates: \(updates)")
        guard let update = updates.first else { return }
        #expect(update.deletions.isEmpty && update.insertions.isEmpty)
        #expect(update.modified.map(\.new.id) == [id])
        #expect(update.modified.first?.new["title"] == .string(title))
        #expect(update.modified.first?.old["title"] == .string(id))
    }

    @Test("vim: rename to name~, 4913 probe, write new file, remove backup → one modification")
    func vimPattern() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        let probe = open(f.file("4913"), O_CREAT | O_WRONLY | O_EXCL, 0o644)
        close(probe)
        unlink(f.file("4913"))
        #expect(rename(f.file("b.json"), f.file("b.json~")) == 0)
        f.writeInPlace("b.json", Self.newB)
        unlink(f.file("b.json~"))
        expectOneModification(await f.settledUpdates(), "b", title: "B2")
        #expect(f.recorder.current.violations == [])
    }

    @Test("sed -i and rsync: temp file renamed over the item → one modification")
    func tempAndRename() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        f.writeInPlace("sedAbC123", Self.newB)  // sed's temp name
        #expect(rename(f.file("sedAbC123"), f.file("b.json")) == 0)
        #expect(await f.recorder.wait { $0.updates.count == 1 })  // then a second, separate edit
        f.writeInPlace(".b.json.Xy12Zq", "{\n  \"title\": \"B3\",\n  \"rank\": 1\n}\n")  // rsync's
        #expect(rename(f.file(".b.json.Xy12Zq"), f.file("b.json")) == 0)
        let updates = await f.settledUpdates()
        #expect(updates.count == 2)
        #expect(updates.map { $0.modified.map(\.new.id) } == [["b"], ["b"]])
        #expect(updates.last?.modified.first?.new["title"] == "B3")
        #expect(updates.allSatisfy { $0.insertions.isEmpty && $0.deletions.isEmpty })
        #expect(f.recorder.current.violations == [])
    }

    @Test("nano, VS Code, shell >: truncate and write in place → one modification")
    func inPlace() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        f.writeInPlace("b.json", Self.newB)
        expectOneModification(await f.settledUpdates(), "b", title: "B2")
    }

    @Test("cp a.json d.json → one insertion of a new item")
    func copy() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        let data = try Data(contentsOf: URL(fileURLWithPath: f.file("a.json")))
        try data.write(to: URL(fileURLWithPath: f.file("d.json")))
        let updates = await f.settledUpdates()
        #expect(updates.count == 1)
        #expect(updates.first?.insertions == [3])
        #expect(updates.first?.inserted.map(\.id) == ["d"])
        #expect(updates.first?.inserted.first?["title"] == "a")
    }

    @Test("mv a.json e.json → a deletion and an insertion, in one update")
    func moveRename() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        #expect(rename(f.file("a.json"), f.file("e.json")) == 0)
        let updates = await f.settledUpdates()
        #expect(updates.count == 1)
        #expect(updates.first?.deletions == [0])
        #expect(updates.first?.deleted.map(\.id) == ["a"])
        #expect(updates.first?.insertions == [2])
        #expect(updates.first?.inserted.map(\.id) == ["e"])
        #expect(f.recorder.current.ids == ["b", "c", "e"])
    }

    @Test("mv b.json c.json onto an existing item → c modified, b deleted, one update")
    func moveOntoExisting() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        #expect(rename(f.file("b.json"), f.file("c.json")) == 0)
        let updates = await f.settledUpdates()
        #expect(updates.count == 1)
        #expect(updates.first?.deleted.map(\.id) == ["b"])
        #expect(updates.first?.deletions == [1])
        #expect(updates.first?.modifications == [2])
        #expect(updates.first?.modificationsNew == [1])
        #expect(updates.first?.modified.first?.new["title"] == "b")
    }

    @Test("rm → one deletion, delivered within the grace period")
    func remove() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        let start = DispatchTime.now()
        unlink(f.file("c.json"))
        #expect(await f.recorder.wait { $0.updates.count == 1 })
        let delivered = try #require(f.recorder.current.updateTimes.first)
        let elapsed = Double(delivered.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        // The grace period is 50 ms; the bound only catches a deletion held back for good
        // (the latency itself is measured by scripts/bench, not by a timed test).
        #expect(elapsed < 5.0)
        let updates = await f.settledUpdates()
        #expect(updates.count == 1)
        #expect(updates.first?.deletions == [2])
        #expect(updates.first?.deleted.first?["title"] == "c")
    }

    @Test("emacs lock symlinks, backups, touch and identical rewrites are no change at all")
    func noChange() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        #expect(symlink("user@host.1234:1", f.file(".#a.json")) == 0)
        f.writeInPlace("a.json~", "backup")
        f.writeInPlace("#a.json#", "autosave")
        f.writeInPlace("a.json", "{\n  \"title\": \"a\",\n  \"rank\": 0\n}\n")  // same bytes
        #expect(utimes(f.file("b.json"), nil) == 0)  // touch
        chmod(f.file("c.json"), 0o600)
        unlink(f.file(".#a.json"))
        // A real edit after them: the only update must be this one.
        f.writeInPlace("b.json", Self.newB)
        expectOneModification(await f.settledUpdates(), "b", title: "B2")
    }

    @Test("a hard link (created, never closed) is read after the fallback delay")
    func hardLink() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        #expect(link(f.file("a.json"), f.file("h.json")) == 0)
        let updates = await f.settledUpdates()
        #expect(updates.count == 1)
        #expect(updates.first?.inserted.map(\.id) == ["h"])
        #expect(updates.first?.inserted.first?["title"] == "a")
    }

    @Test("real vim -es saves as one modification", .enabled(if: Tool.exists("vim")))
    func realVim() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        let status = try await Tool.run(
            "vim",
            [
                "-es", "-N", "-u", "NONE", "-i", "NONE",
                "-c", "%s/\"b\"/\"B2\"/", "-c", "wq", f.file("b.json"),
            ])
        #expect(status == 0)
        expectOneModification(await f.settledUpdates(), "b", title: "B2")
        #expect(f.temp.readFile("b.json") == Self.newB)
    }

    @Test("real sed -i saves as one modification", .enabled(if: Tool.exists("sed")))
    func realSed() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        await #expect(try Tool.run("sed", ["-i", "s/\"b\"/\"B2\"/", f.file("b.json")]) == 0)
        expectOneModification(await f.settledUpdates(), "b", title: "B2")
    }
}

/// Running real tools from tests.
enum Tool {
    static func exists(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .contains { access("\($0)/\(name)", X_OK) == 0 }
    }

    /// Runs `name` with `arguments` to completion, in `directory` if given; returns its status.
    @discardableResult
    static func run(_ name: String, _ arguments: [String], in directory: String? = nil) throws
        -> Int32
    {
        PoolGuard.check("running \(name) to its end")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

extension Tool {
    /// Runs `name` to completion on a thread of its own (`blocking { }`): what a test's
    /// task calls, so that no thread of the cooperative pool waits on the tool.
    @discardableResult
    static func run(_ name: String, _ arguments: [String], in directory: String? = nil)
        async throws -> Int32
    {
        try await blocking { try run(name, arguments, in: directory) }
    }
}
