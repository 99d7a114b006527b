import Dispatch
import JSONStore
import TestSupport
import Testing

/// Observations that name the members they care about: an edit of another member brings
/// no update, the results still hold the current values; entering and leaving are heard.
@Suite("Observing some members")
struct WatchedMembersTests {
    @Test("an edit of another member is no update; the next update has the current values")
    func members() async throws {
        let temp = try TemporaryStore.tasks()
        let recorder = ChangeRecorder()
        let open = Query.all.filter { $0["status"] != "done" }
        let token = temp.store.observe(
            open, members: ["status", "owner.name"], on: DispatchQueue(label: "some"),
            recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        try temp.store.update("tea") { $0["title"] = "Make green tea" }
        try temp.store.update("tea") { $0["owner"] = ["team": "kitchen"] }  // not owner.name
        await temp.store.synchronize()
        #expect(recorder.current.updates.isEmpty, "\(recorder.current.updates)")
        try temp.store.update("tea") { $0["owner"] = ["team": "kitchen", "name": "ann"] }
        #expect(await recorder.wait { $0.updates.count == 1 })
        let first = try #require(recorder.current.updates.first?.modified.first)
        #expect(first.changed("owner.name") && first.new["title"] == "Make green tea")
        // A member the query filters by: the item leaves, and that is heard.
        try temp.store.update("taxes") { $0["status"] = "done" }
        #expect(await recorder.wait { $0.updates.count == 2 })
        #expect(recorder.current.updates.last?.deleted.map(\.id) == ["taxes"])
        // Entering is heard whatever changed.
        try temp.store.put("new", ["title": "New"])
        #expect(await recorder.wait { $0.ids.contains("new") })
        #expect(recorder.current.violations.isEmpty, "\(recorder.current.violations)")
    }
}
