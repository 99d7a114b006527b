import Dispatch
import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

/// A directory's revisions are its journal's: an observation that carries revisions is
/// sent each version once the journal records it, and any `JSONStore` (any process)
/// resumes from its tokens, rebuilt from the journal.
@Suite("The journal's revisions")
struct JournalRevisionTests {
    /// The first change of an observation of `store` from `revision`.
    static func first(_ store: JSONStore, since revision: StoreRevision) async -> StoreChange<Item>?
    {
        var iterator = store.changes(since: revision).makeAsyncIterator()
        return await iterator.next()
    }

    @Test("another store value resumes from a kept journal revision, edits made meanwhile")
    func anotherStore() async throws {
        let temp = try TemporaryStore.tasks()
        let recorder = ChangeRecorder()
        var token = temp.store.observe(
            since: .now, on: DispatchQueue(label: "keeps"), recorder.callback)
        #expect(await recorder.wait { $0.initialCount == 1 })
        try temp.store.put("new", ["title": "New"])
        #expect(await recorder.wait { $0.results.count == 4 })
        let kept = recorder.current.results
        #expect(kept.revision.token.wholeMatch(of: /4@[0-9a-f]{16}/) != nil, "\(kept.revision)")
        token.invalidate()

        // Meanwhile: a write, a hand edit, a hand deletion.
        try temp.store.put("tea", ["title": "Green tea"])
        try temp.writeFile("taxes.json", #"{"title": "File taxes", "status": "done"}"#)
        try FileManager.default.removeItem(atPath: temp.path + "/bike.json")

        let other = try JSONStore(directory: temp.path)
        guard
            case .update(let results, let changes)? = await Self.first(other, since: kept.revision)
        else {
            Issue.record("no update first")
            return
        }
        #expect(results.resumption == .resumed(from: kept.revision))
        #expect(
            ResumeTests.applied(changes, to: kept.map(\.id), results: results) == results.map(\.id))
        #expect(results.map(\.id) == ["new", "taxes", "tea"])
        #expect(Set(changes.modified.map(\.new.id)) == ["taxes", "tea"])
        #expect(changes.deleted.map(\.id) == ["bike"])
        // Each modification's member changes run from the version kept.
        let tea = try #require(changes.modified.first { $0.new.id == "tea" })
        #expect(tea.old["title"] == "Make tea" && tea.new["title"] == "Green tea")
        // Its own revisions are the journal's too, and newer.
        #expect(results.revision.token.hasSuffix(String(kept.revision.token.drop { $0 != "@" })))
        token = other.observe(on: DispatchQueue(label: "other")) { _ in }
        token.invalidate()
    }

    @Test("a pruned revision, or one of a journal begun again, starts afresh saying why")
    func unresumable() async throws {
        var options = JSONStore.Options()
        options.journalSegmentLimit = 512
        options.historyMaxBytes = 1024
        let temp = try TemporaryStore(options: options)
        try temp.store.put("item", ["n": 0])
        guard case .initial(let start)? = await Self.first(temp.store, since: .now) else {
            Issue.record("no initial")
            return
        }
        let early = start.revision
        for n in 1..<60 { try temp.store.put("item", ["n": .number(JSONNumber(n))]) }
        #expect(try #require(temp.store.history).journal.segments().first!.first > 2)
        guard case .initial(let fresh)? = await Self.first(temp.store, since: early),
            case .reset(let reason)? = fresh.resumption
        else {
            Issue.record("no reset")
            return
        }
        #expect(reason.contains("pruned"), "\(reason)")

        // The journal removed: its revisions mean nothing in the new one.
        guard case .initial(let late)? = await Self.first(temp.store, since: .now) else {
            Issue.record("no initial")
            return
        }
        try FileManager.default.removeItem(atPath: temp.path + "/.jsonstore/journal")
        guard case .initial(let again)? = await Self.first(temp.store, since: late.revision),
            case .reset(let why)? = again.resumption
        else {
            Issue.record("no reset")
            return
        }
        #expect(why.contains("another journal"), "\(why)")
    }

    @Test("an observation without since is sent at once; its token resumes in this life")
    func unstamped() async throws {
        let temp = try TemporaryStore.tasks()
        let recorder = ChangeRecorder()
        let token = temp.store.observe(on: DispatchQueue(label: "plain"), recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        let kept = recorder.current.results
        #expect(kept.revision.token.contains(":"), "\(kept.revision)")
        try temp.store.put("new", ["title": "New"])
        await temp.store.synchronize()
        guard
            case .update(let results, let changes)? = await Self.first(
                temp.store, since: kept.revision)
        else {
            Issue.record("no update first")
            return
        }
        #expect(changes.inserted.map(\.id) == ["new"])
        #expect(results.revision.token.contains("@"), "\(results.revision)")
    }
}

extension JournalRevisionTests {
    @Test("while the journal cannot be reached, edits still come, every two seconds at least")
    func sustainedWithoutStamps() async throws {
        let temp = try TemporaryStore.tasks()
        let recorder = ChangeRecorder()
        let token = temp.store.observe(
            since: .now, on: DispatchQueue(label: "waits"), recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        // Another process's long write holds the store's lock: nothing is recorded.
        let lock = open(temp.path + "/.jsonstore.lock", O_RDONLY)
        #expect(lock >= 0 && flock(lock, LOCK_EX) == 0)
        // Edits every 200 ms for 4.4 s: each version waits for a stamp that does not come.
        let path = temp.path
        let writer = Thread {
            for n in 1...22 {
                try? Data(#"{"title": "Make tea \#(n)"}"#.utf8).write(
                    to: URL(fileURLWithPath: path + "/tea.json"))
                usleep(200_000)
            }
        }
        writer.start()
        #expect(await recorder.wait(timeout: 3.5) { $0.updates.count >= 1 })
        #expect(await recorder.wait(timeout: 6) { $0.updates.count >= 2 })
        #expect(recorder.current.results.revision.token.contains(":"))
        flock(lock, LOCK_UN)
        close(lock)
        // The lock gone, the journal catches up: the version shown is stamped (sent before
        // its stamp came, the stamp is what a bookmark gives).
        let store = temp.store
        #expect(
            await recorder.wait {
                $0.results.first { $0.id == "tea" }?["title"] == "Make tea 22"
                    && ($0.results.revision.token.contains("@")
                        || store._quietRevision(atVersion: $0.results.version)?.token
                            .contains("@") == true)
            })
    }

    @Test("a resumed update lists every file invalid now, and files made in an empty store")
    func invalidAndEmpty() async throws {
        let temp = try TemporaryStore()
        guard case .initial(let start)? = await Self.first(temp.store, since: .now) else {
            Issue.record("no initial")
            return
        }
        #expect(start.revision.token.wholeMatch(of: /0@[0-9a-f]{16}/) != nil, "\(start.revision)")
        try temp.writeFile("tea.json", #"{"title": "Tea"}"#)
        try temp.writeFile("cake.json", "{ not json")
        let other = try JSONStore(directory: temp.path)
        guard
            case .update(let results, let changes)? = await Self.first(other, since: start.revision)
        else {
            Issue.record("no update first")
            return
        }
        #expect(results.resumption == .resumed(from: start.revision))
        #expect(changes.inserted.map(\.id) == ["tea"])
        #expect(changes.invalid.map(\.name) == ["cake.json"])
        // Made after the first look at an empty store: a creation, not first seen.
        let tea = try #require(try temp.store.history(of: "tea").first)
        #expect(tea.kind == .created && !tea.isBaseline)
    }
}
