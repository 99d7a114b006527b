import Foundation
import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// The list view and conflicts, on the model: the row is marked, Enter shows the item
/// beside each kept version, and m, t and e end them.
@Suite("The list view's conflicts")
struct ListViewConflictTests {
    static let copyName = "item-000001.sync-conflict-20261201-120000-ABCDEF7.json"
    static let copy = Conflict(
        id: "item-000001", name: copyName, file: "s/" + copyName,
        origin: "Syncthing device ABCDEF7 at 2026-12-01 12:00:00",
        bytes: Array("{\n  \"title\": \"Task one elsewhere\"\n}\n".utf8))

    /// Three items, the second with a Syncthing copy.
    static func model() -> (ListModel, Results<Item>, StoreSnapshot) {
        var (_, snapshot) = makeResults(3)
        snapshot.conflicts[UTF8Key(copyName)] = copy
        let results = Results<Item>.initial(.all, snapshot, coder: .items)
        return (liveModel(results), results, snapshot)
    }

    func lines(_ model: inout ListModel) -> [String] {
        model.frame(width: 200, height: 16, now: 1).text
    }

    @Test("the row is marked, the header counts, the footer says what Enter does")
    func marked() {
        var (model, _, _) = Self.model()
        var screen = lines(&model)
        #expect(screen[0].contains("1 conflict"))
        #expect(screen[3].hasPrefix("!"), "\(screen[3])")
        #expect(!screen[2].hasPrefix("!") && !screen[4].hasPrefix("!"))
        _ = model.handle(.down, page: 9)
        screen = lines(&model)
        #expect(screen[15].contains("item-000001: 1 conflict  Enter both versions"))
    }

    @Test("Enter shows both versions; i keeps the item, v that version, e merges both")
    func enter() {
        var (model, _, _) = Self.model()
        _ = model.handle(.down, page: 9)
        #expect(model.handle(.enter, page: 9) == .none)
        let screen = lines(&model)
        #expect(screen[1].contains("item-000001: conflict 1 of 1"))
        #expect(screen.contains { $0.contains("this item, as it is:") })
        #expect(screen.contains { $0.contains("\"title\": \"Task 1\"") })
        #expect(
            screen.contains {
                $0.contains(
                    "the version from Syncthing device ABCDEF7 at 2026-12-01 12:00:00 (mine or theirs cannot be told), kept in \(Self.copyName):"
                )
            })
        #expect(screen.contains { $0.contains("\"title\": \"Task one elsewhere\"") })
        #expect(screen[15].contains("i keep the item  v keep that version  e merge both"))
        #expect(
            model.handle(.character("i"), page: 9) == .resolve(id: "item-000001", keeping: .item))
        #expect(model.conflictView == nil, "back to the list, where the notice shows")
        _ = model.handle(.enter, page: 9)
        #expect(
            model.handle(.character("v"), page: 9)
                == .resolve(id: "item-000001", keeping: .merged(Self.copy.bytes)))
        _ = model.handle(.enter, page: 9)
        #expect(
            model.handle(.character("e"), page: 9)
                == .mergeConflict(id: "item-000001", with: Self.copy))
        _ = model.handle(.enter, page: 9)
        #expect(model.conflictView != nil)
        _ = model.handle(.escape, page: 9)
        #expect(model.conflictView == nil)
    }

    @Test("the view closes when the conflict ends, and says so")
    func ends() {
        var (model, results, snapshot) = Self.model()
        _ = model.handle(.down, page: 9)
        _ = model.handle(.enter, page: 9)
        var after = snapshot
        after.version = 2
        after.conflicts = [:]
        let (next, changes) = results.applying(
            [], names: [UTF8Key(Self.copyName)], snapshot: after)
        #expect(changes.resolvedConflicts == [Self.copy])
        model.apply(.update(next, changes), now: 2, clock: "12:00:01")
        #expect(model.conflictView == nil)
        let screen = lines(&model)
        #expect(screen[15].contains("item-000001: no conflicts left"))
        #expect(!screen[3].hasPrefix("!"))
    }

    @Test("a merge by hand: the differing members between markers, saved clean, resolved")
    func mergeByHand() throws {
        let temp = try TemporaryStore.tasks()
        try temp.writeFile(
            "tea.sync-conflict-20261201-120000-ABCDEF7.json",
            "{\n  \"title\": \"Make green tea\",\n  \"status\": \"todo\",\n  \"priority\": 2,\n  \"owner\": \"ann\"\n}\n"
        )
        let version = try #require(try temp.store.conflicts(of: "tea").first)
        var shown: String?
        let merge = ConflictMerge(store: temp.store, id: "tea", version: version) { path in
            shown = try? String(contentsOfFile: path, encoding: .utf8)
            // The person keeps theirs' title and removes the markers.
            try?
                "{\n  \"title\": \"Make green tea\",\n  \"status\": \"todo\",\n  \"priority\": 2,\n  \"owner\": \"ann\"\n}\n"
                .write(toFile: path, atomically: false, encoding: .utf8)
            return .success(0)
        }
        #expect(merge.run() == "tea: merged; 1 kept version removed")
        #expect(shown?.contains("<<<<<<< this item") == true)
        #expect(shown?.contains(">>>>>>> the version from Syncthing device ABCDEF7") == true)
        #expect(shown?.contains("\"owner\": \"ann\"") == true, "a member only theirs has is taken")
        #expect(temp.readFile("tea.json")?.contains("Make green tea") == true)
        #expect(try temp.store.conflicts().isEmpty)
        // Saved with the markers still there: nothing changes, the text is kept.
        try temp.writeFile("tea.json.orig", "{\n  \"title\": \"Old tea\"\n}\n")
        let orig = try #require(try temp.store.conflicts(of: "tea").first)
        let refused = ConflictMerge(store: temp.store, id: "tea", version: orig) { _ in .success(0)
        }
        .run()
        #expect(refused.hasPrefix("not merged: "), "\(refused)")
        #expect(refused.contains("remove the conflict markers"))
        #expect(try temp.store.conflicts().count == 1)
        // The text is the user's, kept where the notice says; the test removes it.
        let kept = try #require(refused.range(of: "your text is kept in "))
        let file = String(refused[kept.upperBound...])
        #expect(FileManager.default.fileExists(atPath: file))
        try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent)
    }
}
