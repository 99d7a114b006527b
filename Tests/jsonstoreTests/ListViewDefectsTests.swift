import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// What new users met in the list view, each pinned: columns that follow the items, ids
/// never cut while they fit, counts in words, text cut with an ellipsis.
@Suite("The list view's defects, fixed")
struct ListViewDefectsTests {
    @Test("a view started on an empty store gains the columns of the items that arrive")
    func columnsFollowItems() {
        let (empty, _) = makeResults(0)
        var (full, snapshot) = makeResults(0)
        var model = liveModel(empty)
        #expect(model.columns == ["id"])
        // Items arrive, with a title and a number: their columns appear.
        let change = insert(full, &snapshot, id: "tea")
        if case .update(let results, _) = change { full = results }
        model.apply(change, now: 1, clock: "12:00:01")
        #expect(model.columns == ["id", "title", "n"])
        let lines = model.frame(width: 80, height: 6, now: 1).text
        #expect(lines[1].contains("TITLE") && lines[2].contains("new"))
        // Columns asked for stay as asked.
        var asked = liveModel(empty, columns: ["owner"])
        asked.apply(insert(empty, &snapshot, id: "pot"), now: 1, clock: "12:00:01")
        #expect(asked.columns == ["id", "owner"])
    }

    @Test("the id column is never cut while the terminal can hold it; others give way")
    func idsWhole() {
        let long = String(repeating: "accelerator-counter-", count: 2)  // 40 characters
        let widths = Table.widths(natural: [40, 104, 3], total: 78)
        #expect(widths.first == 40 && widths.reduce(0, +) + 2 * (widths.count - 1) <= 78)
        // Too narrow for more than the id: the other columns go first.
        #expect(Table.widths(natural: [40, 10], total: 41) == [40])
        #expect(Table.widths(natural: [40], total: 20) == [20])
        // A 40-character id among long titles, at 80 columns: whole.
        var (items, snapshot) = makeResults(1) { _ in String(repeating: "a long title ", count: 8) }
        var one = liveModel(items)
        let change = insert(items, &snapshot, id: long)
        one.apply(change, now: 1, clock: "12:00:01")
        let text = one.frame(width: 80, height: 6, now: 1).text.joined(separator: "\n")
        #expect(text.contains(long), "\(text)")
    }

    @Test("one item is \"1 item\"; a header or footer too long ends in …, a notice wraps")
    func wordsAndEllipses() {
        let (results, _) = makeResults(1)
        var model = liveModel(results, path: String(repeating: "/very/long/path", count: 10))
        var lines = model.frame(width: 60, height: 6, now: 1).text
        #expect(lines[0].contains("…"), "\(lines[0])")
        model = liveModel(results)
        lines = model.frame(width: 100, height: 6, now: 1).text
        #expect(lines[0].contains("1 item ·") && !lines[0].contains("1 items"))
        #expect(model.frame(width: 30, height: 6, now: 1).text[5].hasSuffix("…"))
        // A notice is never cut (it may name the file that keeps the user's text): it
        // wraps over the rows above the footer.
        let warning = String(repeating: "a warning that goes on ", count: 5)
        model.tell(warning)
        let shown = model.frame(width: 40, height: 6, now: 1).text.suffix(4).joined()
        #expect(!shown.contains("…"), "\(shown)")
        #expect(
            shown.filter { !$0.isWhitespace }.contains(warning.filter { !$0.isWhitespace }),
            "\(shown)")
    }
}
