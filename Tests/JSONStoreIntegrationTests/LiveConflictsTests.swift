import Foundation
import JSONStore
import TestSupport
import Testing

/// Conflicts are live: a sync tool's copy, or a version a mirror keeps, appearing beside an
/// item is a new conflict in the next change set (never an inserted item), and its removal
/// a resolved one; results list them from the first load.
@Suite("Live conflicts")
struct LiveConflictsTests {
    static let syncthing = "a.sync-conflict-20261201-120000-ABCDEF7.json"

    @Test("a copy appearing is a new conflict, not an item; removed, it is resolved")
    func appearsAndGoes() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        try f.temp.writeFile(Self.syncthing, "{\n  \"title\": \"a elsewhere\"\n}\n")
        #expect(await f.recorder.wait { $0.updates.contains { !$0.conflicts.isEmpty } })
        let state = f.recorder.current
        let update = try #require(state.updates.last)
        #expect(update.inserted.isEmpty && update.deleted.isEmpty && update.modified.isEmpty)
        #expect(update.conflicts.map(\.id) == ["a"])
        #expect(update.conflicts.first?.origin == "Syncthing device ABCDEF7 at 2026-12-01 12:00:00")
        #expect(update.conflicts.first?.object?["title"] == "a elsewhere")
        #expect(state.results.conflicts(of: "a").count == 1)
        #expect(state.ids == ["a", "b", "c"], "the copy is no item")
        // Resolved through the store: the copy's version becomes the item, the copy goes.
        try f.store.resolve(
            "a", keeping: .merged(Array("{\n  \"title\": \"a elsewhere\"\n}\n".utf8)))
        #expect(
            await f.recorder.wait {
                $0.results.conflicts.isEmpty && $0.results[0]["title"] == "a elsewhere"
            })
        let ended = f.recorder.current.updates.flatMap(\.resolvedConflicts)
        #expect(ended.map(\.name) == [Self.syncthing])
        #expect(f.recorder.current.violations.isEmpty)
    }

    @Test("the first results hold the conflicts already there, a mirror's kept versions too")
    func fromTheStart() async throws {
        let f = try LiveFixture(startObserving: false)
        try f.temp.writeFile("b.json.orig", "{\n  \"title\": \"b before the merge\"\n}\n")
        try f.store._keepConflict(
            of: "c", Array("{\n  \"title\": \"c kept\"\n}\n".utf8), from: "host")
        f.startObserving()
        #expect(await f.started())
        let conflicts = f.recorder.current.results.conflicts
        #expect(conflicts.map(\.id) == ["b", "c"])
        #expect(conflicts.map(\.origin).first == "a merge's backup")
        #expect(conflicts.last?.origin.hasPrefix("the mirror on host at ") == true)
        #expect(f.recorder.current.ids == ["a", "b", "c"])
    }
}
