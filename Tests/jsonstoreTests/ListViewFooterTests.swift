import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// The list view's footer: warnings and notices that come together.
@Suite("The list view's footer")
struct ListViewFooterTests {
    @Test("notices stack above the footer, newest first, a few at most, then how many more")
    func stacked() {
        let (results, _) = makeResults(20)
        var model = liveModel(results)
        model.tell("warning: no item has the field 'owner'")
        model.tell("deleted 2 items in one batch")
        var lines = model.frame(width: 80, height: 12, now: 1).text
        let newest = lines.firstIndex { $0.contains("deleted 2 items") }
        let older = lines.firstIndex { $0.contains("no item has the field 'owner'") }
        #expect(newest != nil && older != nil, "\(lines.joined(separator: "\n"))")
        if let newest, let older { #expect(newest < older) }
        for n in 0..<10 { model.tell("notice \(n)") }
        lines = model.frame(width: 80, height: 12, now: 1).text
        #expect(lines.contains { $0.contains("notice 9") })
        #expect(lines.contains { $0.contains("more") }, "\(lines.joined(separator: "\n"))")
        #expect(lines[2].contains("item-000000"), "the rows stay under a few lines of notices")
        _ = model.handle(.down, page: 9)
        lines = model.frame(width: 80, height: 12, now: 1).text
        #expect(!lines.contains { $0.contains("notice") }, "a key dismisses them all")
    }

    @Test("one is one: the footer's words for one item, one conflict, one version")
    func singular() throws {
        let temp = try TemporaryStore.tasks()
        let edit = BulkEdit(store: temp.store, ids: ["tea"]) { _ in .success(0) }
        #expect(edit.run() == "1 item left as it was")
        let two = BulkEdit(store: temp.store, ids: ["tea", "bike"]) { _ in .success(0) }
        #expect(two.run() == "2 items left as they were")
        #expect(ListModel.count(1, "conflict") == "1 conflict")
        #expect(ListModel.count(1, "kept version") == "1 kept version")
        #expect(FooterPrompt(asking: .deleteMarked(["tea"])).questionText == " Delete 1 item? y/N")
    }
}
