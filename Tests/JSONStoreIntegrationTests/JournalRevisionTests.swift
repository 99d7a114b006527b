import Dispatch
import Foundation
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
