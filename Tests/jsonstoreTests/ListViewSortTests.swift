import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// The list view's `s`, `S` and `c` keys, against the model and its frames.
@Suite("Sorting and picking columns in the list view")
struct ListViewSortTests {
    func text(_ model: inout ListModel) -> [String] {
        model.frame(width: 80, height: 12, now: 1).text
    }

    /// The results the app gets once it observes again in the model's order.
    func reobserved(_ model: inout ListModel, _ snapshot: StoreSnapshot) {
        let query = SortField.sorted(.all, by: model.sort)
        model.apply(
            .initial(Results<Item>.initial(query, snapshot, coder: .items)), now: 2,
            clock: "12:00:02")
    }

    @Test("s sorts by the next column, S reverses; the order is in the header, the columns stay")
    func sortKeys() {
        let (results, snapshot) = makeResults(5) { "Task \(4 - $0)" }
        var model = liveModel(results)
        #expect(!text(&model)[0].contains("sort"))
        #expect(model.handle(.character("s"), page: 9) == .sort)
        #expect(SortField.text(model.sort) == "title")
        reobserved(&model, snapshot)
        var lines = text(&model)
        #expect(lines[0].contains("· sort title"))
        #expect(lines[2].contains("item-000004") && lines[2].contains("Task 0"))
        #expect(lines[1].contains("ID") && lines[1].contains("TITLE") && lines[1].contains("N"))
        #expect(model.handle(.character("S"), page: 9) == .sort)
        #expect(SortField.text(model.sort) == "-title")
        reobserved(&model, snapshot)
        lines = text(&model)
        #expect(lines[0].contains("sort -title"))
        #expect(lines[2].contains("item-000000"))
        _ = model.handle(.character("s"), page: 9)
        #expect(SortField.text(model.sort) == "n")
        _ = model.handle(.character("s"), page: 9)
        #expect(SortField.text(model.sort) == "id", "after the last column, the id")
        reobserved(&model, snapshot)
        #expect(model.columns == ["id", "title", "n"])
    }

    @Test("S with no sort reverses the id order; the selection stays on its item")
    func reverseFromID() {
        let (results, snapshot) = makeResults(5)
        var model = liveModel(results)
        _ = model.handle(.down, page: 9)
        #expect(model.selectedID == "item-000001")
        #expect(model.handle(.character("S"), page: 9) == .sort)
        #expect(SortField.text(model.sort) == "-id")
        reobserved(&model, snapshot)
        #expect(text(&model)[2].contains("item-000004"))
        #expect(model.selectedID == "item-000001")
        #expect(model.selected == 3)
    }

    @Test("c picks the columns: space shows or hides, Enter applies, Esc leaves them")
    func picker() {
        let (results, _) = makeResults(5)
        var model = liveModel(results)
        #expect(model.handle(.character("c"), page: 9) == .none)
        var lines = text(&model)
        #expect(lines[1].contains("Columns after the id"))
        #expect(lines[2].contains("[1] title") && lines[3].contains("[2] n"))
        #expect(lines[11].contains("space show/hide"))
        _ = model.handle(.character(" "), page: 9)  // hides title
        lines = text(&model)
        #expect(lines[2].contains("[ ] title") && lines[3].contains("[1] n"))
        _ = model.handle(.character(" "), page: 9)  // shows it again, after n
        #expect(text(&model)[2].contains("[2] title"))
        _ = model.handle(.enter, page: 9)
        #expect(model.picker == nil)
        #expect(model.columns == ["id", "n", "title"])
        lines = text(&model)
        #expect(
            lines[1].contains("ID")
                && lines[1].firstRange(of: "N ")!.lowerBound
                    < lines[1].firstRange(of: "TITLE")!.lowerBound
        )
        _ = model.handle(.character("c"), page: 9)
        _ = model.handle(.down, page: 9)
        _ = model.handle(.character(" "), page: 9)
        _ = model.handle(.escape, page: 9)
        #expect(model.columns == ["id", "n", "title"], "Esc changes nothing")
    }

    @Test("a picked column set filters by its text")
    func pickerRefilters() {
        let (results, _) = makeResults(20)
        var model = liveModel(results)
        for key in [
            Key.character("/"), .character("T"), .character("a"), .character("s"), .character("k"),
            .character(" "), .character("7"), .enter,
        ] {
            _ = model.handle(key, page: 9)
        }
        #expect(model.visibleCount == 1)
        _ = model.handle(.character("c"), page: 9)
        _ = model.handle(.character(" "), page: 9)  // hides title
        _ = model.handle(.enter, page: 9)
        #expect(model.visibleCount == 0, "the title is no longer a column, so no row says 'Task 7'")
    }

    @Test("a notice (an unknown field) shows in the footer until a key is pressed")
    func notice() {
        let (results, _) = makeResults(3)
        var model = liveModel(results)
        model.tell("warning: no item has the field 'titel' (--where)")
        #expect(text(&model)[11].contains("no item has the field 'titel'"))
        _ = model.handle(.down, page: 9)
        #expect(text(&model)[11].contains("s S sort  c columns"))
    }
}
