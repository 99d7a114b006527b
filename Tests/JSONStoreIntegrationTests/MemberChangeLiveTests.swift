import Dispatch
import JSONStore
import TestSupport
import Testing

/// Member-level changes as observers receive them, untyped and typed, from real edits.
@Suite("Member-level changes, live")
struct MemberChangeLiveTests {
    struct Task: Codable, Sendable {
        var title: String
        var status: String
    }

    @Test("typed and untyped observers hear which members changed, from a hand edit")
    func typedAndUntyped() async throws {
        let temp = try TemporaryStore()
        try temp.writeFile("tea.json", "{\n  \"title\": \"Make tea\",\n  \"status\": \"todo\"\n}\n")
        var typed = temp.store.changes(Task.self).makeAsyncIterator()
        var untyped = temp.store.changes().makeAsyncIterator()
        guard case .initial? = await typed.next(), case .initial? = await untyped.next() else {
            Issue.record("no initial results")
            return
        }
        // A hand edit that also rewrites the layout: only the value's change counts.
        try temp.writeFile("tea.json", #"{"title": "Make tea", "status": "done", "cups": 2}"#)
        guard case .update(_, let changes)? = await typed.next(),
            case .update(_, let items)? = await untyped.next()
        else {
            Issue.record("no update")
            return
        }
        let expected = [
            MemberChange(path: "/status", old: "todo", new: "done"),
            MemberChange(path: "/cups", old: nil, new: 2),
        ]
        #expect(changes.modified.first?.changes == expected)
        #expect(items.modified.first?.changes == expected)
        let m = try #require(changes.modified.first)
        #expect(m.changed("status") && !m.changed("title"))
        #expect(m.new.status == "done" && m.old.status == "todo")
        // Only whitespace changed: no update at all (the next one is the real edit).
        try temp.writeFile(
            "tea.json", "{\n  \"title\": \"Make tea\",\n  \"status\": \"done\",\n  \"cups\": 2\n}\n"
        )
        await temp.store.synchronize()
        try temp.writeFile("tea.json", #"{"title": "Make green tea", "status": "done", "cups": 2}"#)
        guard case .update(_, let next)? = await untyped.next() else {
            Issue.record("no update")
            return
        }
        #expect(
            next.modified.first?.changes == [
                MemberChange(path: "/title", old: "Make tea", new: "Make green tea")
            ])
    }
}
