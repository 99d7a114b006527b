import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// The list view's workflows, on the model: marks and bulk actions, the filter by
/// conditions, the keys' help, copying ids.
@Suite("The list view's workflows")
struct ListViewWorkflowTests {
    func lines(_ model: inout ListModel) -> [String] {
        model.frame(width: 120, height: 14, now: 1).text
    }

    @Test("Space marks and moves down; d asks for the marked ones; Esc clears marks first")
    func marks() {
        let (results, _) = makeResults(5)
        var model = liveModel(results)
        _ = model.handle(.character(" "), page: 9)
        _ = model.handle(.down, page: 9)
        _ = model.handle(.character(" "), page: 9)
        #expect(model.selection.marked == ["item-000000", "item-000002"])
        #expect(model.selected == 3)
        var screen = lines(&model)
        #expect(screen[0].contains("2 marked"))
        #expect(screen[2].hasPrefix("*") && screen[4].hasPrefix("*") && !screen[3].hasPrefix("*"))
        #expect(screen[13].contains("2 marked"))
        _ = model.handle(.character("d"), page: 9)
        #expect(lines(&model)[13].contains("Delete 2 items? y/N"))
        #expect(
            model.handle(.character("y"), page: 9)
                == .deleteMany(ids: ["item-000000", "item-000002"]))
        #expect(model.selection.marks.isEmpty)
        // Marks, then Esc: the marks go, the filter stays.
        _ = model.handle(.character("/"), page: 9)
        for c in "task" { _ = model.handle(.character(c), page: 9) }
        _ = model.handle(.enter, page: 9)
        _ = model.handle(.character(" "), page: 9)
        _ = model.handle(.escape, page: 9)
        #expect(model.selection.marks.isEmpty && model.matches != nil)
        _ = model.handle(.escape, page: 9)
        #expect(model.matches == nil)
        screen = lines(&model)
        #expect(!screen[0].contains("marked"))
    }

    @Test("e with marks edits them as one document; y copies the marked ids, then they go")
    func bulkEditAndCopy() {
        let (results, _) = makeResults(3)
        var model = liveModel(results)
        #expect(model.handle(.character("y"), page: 9) == .copy("item-000000"))
        _ = model.handle(.character(" "), page: 9)
        _ = model.handle(.character(" "), page: 9)
        #expect(
            model.handle(.character("e"), page: 9)
                == .editMany(ids: ["item-000000", "item-000001"]))
        #expect(model.selection.marks.isEmpty)
        _ = model.handle(.character("g"), page: 9)
        _ = model.handle(.character(" "), page: 9)
        _ = model.handle(.character(" "), page: 9)
        #expect(model.handle(.character("y"), page: 9) == .copy("item-000000\nitem-000001"))
    }

    @Test("the edited document: an object of objects by valid id, or refused with where")
    func bulkDocument() {
        let good = BulkEdit.items(Array(#"{"tea": {"title": "T"}, "new": {"n": 1}}"#.utf8))
        #expect((try? good.get())?.map(\.0) == ["tea", "new"])
        for (text, reason) in [
            (#"{"tea": {"title": "T",}}"#, "1:22: trailing comma"),
            (#"["tea"]"#, "JSON object by id"),
            (#"{"a/b": {}}"#, "a/b"), (#"{"tea": 3}"#, "tea: an item must be a JSON object"),
        ] {
            guard case .failure(let refusal) = BulkEdit.items(Array(text.utf8)) else {
                Issue.record("\(text) was not refused")
                continue
            }
            #expect(refusal.message.contains(reason), "\(refusal.message)")
        }
    }

    @Test("/ with conditions keeps the rows where each holds; words still search text")
    func conditions() {
        let (results, _) = makeResults(30)
        var model = liveModel(results)
        _ = model.handle(.character("/"), page: 9)
        for c in "n>=20 n<25" { _ = model.handle(.character(c), page: 9) }
        _ = model.handle(.enter, page: 9)
        #expect(model.visibleCount == 5)
        #expect(lines(&model)[0].contains("filter n>=20 n<25"))
        _ = model.handle(.character("/"), page: 9)
        for c in " 22" { _ = model.handle(.character(c), page: 9) }
        _ = model.handle(.enter, page: 9)
        #expect(model.visibleCount == 1 && model.selectedID == "item-000022")
        _ = model.handle(.escape, page: 9)
        #expect(model.visibleCount == 30)
    }

    @Test("? shows every key with what it does; any key closes it")
    func help() {
        let (results, _) = makeResults(3)
        var model = liveModel(results)
        _ = model.handle(.character("?"), page: 9)
        let screen = model.frame(width: 100, height: 30, now: 1).text.joined(separator: "\n")
        for binding in ListKeys.bindings {
            #expect(screen.contains(binding.help), "\(binding.help)")
        }
        #expect(model.handle(.character("q"), page: 9) == .none)  // closes, does not quit
        #expect(!model.showsHelp)
    }
}

/// `p`'s pane, beside the list or below it, following the selection and lighting what
/// changed.
@Suite("The list view's detail pane")
struct ListViewPaneTests {
    @Test("p shows the selected item's JSON beside a wide list, below a narrow one")
    func layout() {
        let (results, _) = makeResults(5)
        var model = liveModel(results)
        _ = model.handle(.character("p"), page: 9)
        var lines = model.frame(width: 120, height: 14, now: 1).text
        #expect(lines[1].contains("│") && lines[2].contains(#""id": "item-000000","#))
        #expect(lines[3].contains(#""title": "Task 0","#))
        _ = model.handle(.down, page: 9)
        lines = model.frame(width: 120, height: 14, now: 1).text
        #expect(lines[2].contains(#""id": "item-000001","#))  // it follows the selection
        lines = model.frame(width: 80, height: 14, now: 1).text
        let rule = lines.firstIndex { $0.hasPrefix("────") }
        #expect(rule != nil && rule! > 2)
        #expect(lines[(rule ?? 0) + 2].contains(#""id": "item-000001","#))
        _ = model.handle(.character("p"), page: 9)
        #expect(!model.frame(width: 120, height: 14, now: 1).text[2].contains("│"))
    }

    @Test("the pane follows a live edit and lights the members that changed")
    func changes() {
        var (results, snapshot) = makeResults(3)
        var model = liveModel(results)
        _ = model.handle(.character("p"), page: 9)
        let change = modify(results, &snapshot, id: "item-000000", title: "Renamed")
        if case .update(let next, _) = change { results = next }
        model.apply(change, now: 2, clock: "12:00:02")
        let frame = model.frame(width: 120, height: 14, now: 2)
        let titleRow = frame.text.firstIndex { $0.contains(#""title": "Renamed""#) }
        #expect(titleRow != nil)
        let idRow = frame.text.firstIndex { $0.contains(#""id": "item-000000""#) }
        guard let titleRow, let idRow else { return }
        let column = frame.text[titleRow].distance(
            from: frame.text[titleRow].startIndex,
            to: frame.text[titleRow].firstIndex(of: "\"")!)
        #expect(frame.rows[titleRow][column].style.background == .yellow)
        #expect(frame.rows[idRow][column].style.background != .yellow)
    }
}

/// `f`: the values of a field with their counts, live; Enter on one filters the list.
@Suite("The list view's counts")
struct ListViewCountsTests {
    @Test("f asks for a field; the counts come from the app; Enter filters by the value")
    func counts() {
        let (results, _) = makeResults(6)
        var model = liveModel(results)
        _ = model.handle(.character("f"), page: 9)
        #expect(model.frame(width: 100, height: 12, now: 1).text[11].contains("count by field"))
        var action = ListModel.Action.none
        for key in "title".map(Key.character) + [.enter] { action = model.handle(key, page: 9) }
        #expect(action == .observeCounts(field: "title"))
        #expect(model.frame(width: 100, height: 12, now: 1).text[2].contains("counting…"))
        model.showCounts([
            CountBy.Count(value: "Task 1", count: 1), CountBy.Count(value: "Task 2", count: 1),
        ])
        var lines = model.frame(width: 100, height: 12, now: 1).text
        #expect(lines[1].contains("Counts of title") && lines[2].contains("TITLE"))
        #expect(lines[3].contains("Task 1") && lines[3].contains("1"))
        // Live: new counts replace the old, the cursor kept in range.
        _ = model.handle(.down, page: 9)
        model.showCounts([CountBy.Count(value: "Task 2", count: 2)])
        lines = model.frame(width: 100, height: 12, now: 1).text
        #expect(lines[3].contains("Task 2") && lines[3].contains("2"))
        #expect(model.handle(.enter, page: 9) == .stopCounts)
        #expect(model.countsView == nil && model.visibleCount == 1)
        #expect(
            model.frame(width: 100, height: 12, now: 1).text[0].contains(#"filter title="Task 2""#))
    }

    @Test("Enter alone takes the sort field; by id there is none to take; Esc goes back")
    func sortField() {
        let (results, _) = makeResults(3)
        var model = liveModel(results)
        _ = model.handle(.character("f"), page: 9)
        #expect(model.handle(.enter, page: 9) == .none)
        #expect(model.notice?.contains("type a field") == true)
        _ = model.handle(.character("s"), page: 9)  // sorts by the title
        _ = model.handle(.character("f"), page: 9)
        #expect(model.handle(.enter, page: 9) == .observeCounts(field: "title"))
        #expect(model.handle(.escape, page: 9) == .stopCounts && model.countsView == nil)
        #expect(CountsView.condition("owner", nil) == "!owner")
        #expect(CountsView.condition("n", .number(JSONNumber(2))) == "n=2")
        #expect(CountsView.condition("s", "in progress") == #"s="in progress""#)
    }
}
