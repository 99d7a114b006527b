import JSONStore
import TestSupport
import Testing

/// Grouped results from real edits: sections that appear and go, rows in each section's
/// index space, and each section's count and sums, untyped and typed.
@Suite("Live groups and counts")
struct LiveGroupsTests {
    struct Task: Codable, Sendable {
        var title: String
        var status: String
        var priority: Int
    }

    @Test("a hand edit moves a row to a new section; a sum follows; a last row takes its section")
    func sections() async throws {
        let temp = try TemporaryStore.tasks()  // bike done 1, taxes todo 3, tea todo 2
        let board = Query.all.grouped(by: "status", aggregating: ["priority"])
        var changes = temp.store.changes(board).makeAsyncIterator()
        guard case .initial(let results)? = await changes.next() else {
            Issue.record("no initial results")
            return
        }
        #expect(results.sections.map(\.key) == ["done", "todo"])
        #expect(results.sections.map { $0.map(\.id) } == [["bike"], ["taxes", "tea"]])
        #expect(results.section(for: "todo")?.sum(of: "priority") == JSONNumber(5))

        // tea, the second row of "todo", starts "doing", a section before "done".
        try temp.writeFile(
            "tea.json", #"{"title": "Make tea", "status": "doing", "priority": 2}"#)
        guard case .update(let moved, let set)? = await changes.next() else {
            Issue.record("no update")
            return
        }
        #expect(moved.sections.map(\.key) == ["doing", "done", "todo"])
        #expect(set.sections.sectionsToInsert == [0])
        #expect(set.sections.deletions == [RowPath(section: 1, row: 1)])
        #expect(set.sections.insertions.isEmpty)  // the new section brings its row
        #expect(set.sections.recounted == [2])  // "todo" lost one
        #expect(moved.section(for: "todo")?.sum(of: "priority") == JSONNumber(3))

        // Only a summed member changes: the row is modified in place, its section recounted.
        try temp.store.update("bike") { $0["priority"] = 4 }
        guard case .update(let summed, let set)? = await changes.next() else {
            Issue.record("no update")
            return
        }
        #expect(set.sections.modifications == [RowPath(section: 1, row: 0)])
        #expect(set.sections.recounted == [1])
        #expect(summed.section(for: "done")?.max(of: "priority") == JSONNumber(4))

        // The last row of "done" goes, and so does its section, rows and all.
        try temp.store.delete("bike")
        guard case .update(let emptied, let set)? = await changes.next() else {
            Issue.record("no update")
            return
        }
        #expect(emptied.sections.map(\.key) == ["doing", "todo"])
        #expect(set.sections.sectionsToDelete == [1] && set.sections.deletions.isEmpty)
        #expect(set.deletions == [1])  // the flat change set says the same in one section
    }

    @Test("typed results are sectioned by the member, with the query's order inside")
    func typed() async throws {
        let temp = try TemporaryStore.tasks()
        let query = Query.all.sorted(by: "priority", descending: true).grouped(by: "status")
        var changes = temp.store.changes(Task.self, query).makeAsyncIterator()
        guard case .initial(let results)? = await changes.next() else {
            Issue.record("no initial results")
            return
        }
        #expect(
            results.sections.map { $0.map(\.title) } == [
                ["Fix the bike"], ["File taxes", "Make tea"],
            ])
        try temp.store.put("nap", ["title": "Nap", "status": "todo", "priority": 9])
        guard case .update(let next, let set)? = await changes.next() else {
            Issue.record("no update")
            return
        }
        #expect(set.sections.insertions == [RowPath(section: 1, row: 0)])
        #expect(next.sections[1].first?.title == "Nap" && next.sections[1].offset == 1)
        #expect(next.sections[1].count == 3)
    }
}
