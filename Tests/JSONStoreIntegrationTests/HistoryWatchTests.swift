import Dispatch
import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// What a watcher records in the journal: other programs' edits as they happen (real sed,
/// vim and git), each once however many watch, and what changed while nothing watched
/// when it starts. Each test waits for the journal, with a deadline.
@Suite("History: what watchers record")
struct HistoryWatchTests {
    /// The journal's entries, read as they are (no catch-up of its own).
    static func journal(_ store: JSONStore) -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        _ = store.history?.journal.read { entries.append($0) }
        return entries
    }

    /// Waits until the journal's entries satisfy `condition` (20 s at most).
    static func waitForJournal(
        _ store: JSONStore, until condition: @escaping @Sendable ([HistoryEntry]) -> Bool
    ) async throws -> [HistoryEntry] {
        try await blocking {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                let entries = journal(store)
                if condition(entries) { return entries }
                usleep(10_000)
            }
            return journal(store)
        }
    }

    @Test("sed -i and vim while an observer runs: each edit recorded once, as it happened")
    func editorsWhileWatched() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        // The files the fixture wrote before observing are found when it starts, before
        // the journal had looked at the store: where their history begins, not creations.
        let found = try await Self.waitForJournal(f.store) { $0.count == 3 }
        #expect(found.allSatisfy { $0.isLate && $0.isBaseline && $0.kind == .created })
        await #expect(try Tool.run("sed", ["-i", "s/\"a\"/\"A2\"/", f.file("a.json")]) == 0)
        _ = await f.settledUpdates()
        if Tool.exists("vim") {
            let status = try await Tool.run(
                "vim",
                [
                    "-es", "-N", "-u", "NONE", "-i", "NONE", "-c", "%s/\"b\"/\"B2\"/", "-c",
                    "wq", f.file("b.json"),
                ])
            #expect(status == 0)
        } else {
            await #expect(try Tool.run("sed", ["-i", "s/\"b\"/\"B2\"/", f.file("b.json")]) == 0)
        }
        _ = await f.settledUpdates()
        try FileManager.default.removeItem(atPath: f.file("c.json"))
        let entries = try await Self.waitForJournal(f.store) { entries in
            entries.filter { !$0.isLate }.count >= 3
        }
        let live = entries.filter { !$0.isLate }
        #expect(live.map { "\($0.id) \($0.kind)" } == ["a modified", "b modified", "c deleted"])
        #expect(live.allSatisfy { $0.source == .otherProgram && $0.operation == nil })
        #expect(live[0].changes == [MemberChange(path: "/title", old: "a", new: "A2")])
        #expect(live[2].value == ["title": "c", "rank": 2])
        #expect(Set(entries.filter(\.isLate).map(\.id)) == ["a", "b", "c"])
        // Nothing more comes: each was recorded once.
        f.store.engine.configuration.recorder?.drain()
        #expect(Self.journal(f.store).count == entries.count)
    }

    @Test("two watchers, in two processes' stead: every edit is recorded once")
    func twoWatchers() async throws {
        let f = try LiveFixture()
        // A second store value on the same directory, with a watcher of its own.
        let other = try JSONStore(directory: f.path)
        let otherRecorder = ChangeRecorder()
        let token = other.observe(.all, on: DispatchQueue(label: "other"), otherRecorder.callback)
        defer { token.invalidate() }
        #expect(await f.started())
        #expect(await otherRecorder.wait { $0.initialCount == 1 })
        _ = try await Self.waitForJournal(f.store) { $0.count == 3 }  // found at start: late
        for n in 100..<110 {
            f.writeInPlace("a.json", "{\"title\": \"a\", \"rank\": \(n)}\n")
            // Recorded before the next edit: a burst faster than the journal's syncs may be
            // recorded as its net change, as the files hold it when a recorder looks.
            _ = try await Self.waitForJournal(f.store) { entries in
                entries.contains { $0.changes.first?.new?.intValue == n }
            }
        }
        _ = await f.settledUpdates()
        await other.synchronize()
        f.store.engine.configuration.recorder?.drain()
        other.engine.configuration.recorder?.drain()
        let entries = Self.journal(f.store)
        let ranks = entries.filter { $0.id == "a" && !$0.isLate }
            .compactMap { $0.changes.first?.new?.intValue }
        #expect(ranks == Array(100..<110))
        // Each version once: no fingerprint twice in a row.
        let prints = entries.filter { $0.id == "a" }.map(\.fingerprint)
        #expect(zip(prints, prints.dropFirst()).allSatisfy { $0 != $1 })
    }

    @Test("git checkout: what git changed is recorded as git's", .enabled(if: Tool.exists("git")))
    func gitCheckout() async throws {
        let f = try LiveFixture(startObserving: false)
        let git = { (arguments: [String]) async throws -> Int32 in
            try await Tool.run(
                "git", ["-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments,
                in: f.path)
        }
        #expect(try await git(["init", "-q", "-b", "one"]) == 0)
        #expect(try await git(["add", "a.json", "b.json", "c.json"]) == 0)
        #expect(try await git(["commit", "-q", "-m", "one"]) == 0)
        #expect(try await git(["checkout", "-q", "-b", "two"]) == 0)
        f.writeInPlace("a.json", "{\"title\": \"a on two\", \"rank\": 0}\n")
        #expect(try await git(["commit", "-q", "-am", "two"]) == 0)
        #expect(try await git(["checkout", "-q", "one"]) == 0)
        f.startObserving()
        #expect(await f.started())
        // What the watcher found when it started is recorded first (as seen late): an
        // edit before that would be found with it.
        _ = try await Self.waitForJournal(f.store) { $0.count == 3 }
        #expect(try await git(["checkout", "-q", "two"]) == 0)
        let entries = try await Self.waitForJournal(f.store) { entries in
            entries.contains { $0.id == "a" && !$0.isLate }
        }
        let checkout = entries.filter { !$0.isLate }
        #expect(checkout.map(\.id) == ["a"])
        #expect(checkout.first?.source == .git)
        #expect(checkout.first?.changes.map(\.path) == ["/title"])
    }

    @Test("the library's own writes while it watches are recorded once, as its writer's")
    func ownWritesWatched() async throws {
        var options = JSONStore.Options()
        options.writerName = "tests"
        let f = try LiveFixture(options: options)
        #expect(await f.started())
        try f.store.update("a") { $0["rank"] = 10 }
        try f.store.delete("b")
        _ = await f.settledUpdates()
        f.store.engine.configuration.recorder?.drain()
        let entries = Self.journal(f.store).filter { !$0.isLate }
        #expect(
            entries.map { "\($0.id) \($0.kind) \($0.source)" } == [
                "a modified jsonstore tests", "b deleted jsonstore tests",
            ])
    }
}
