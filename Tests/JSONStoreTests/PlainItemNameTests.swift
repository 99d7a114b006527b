import TestSupport
import Testing

@testable import JSONStore

/// A listing takes most names by their bytes (`EntryName.plainItemID`) and makes no string
/// of them: it must take exactly those whose full reading (`EntryName.init`) is an item,
/// with that id, and leave every other name to it.
@Suite("Plain item names taken by their bytes")
struct PlainItemNameTests {
    /// `EntryName.plainItemID` of `name`'s bytes, as a string.
    private func plainID(_ name: String) -> String? {
        Array(name.utf8).withUnsafeBufferPointer { bytes in
            EntryName.plainItemID(bytes).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @Test("names made of pieces at random: a plain one's id is the one the full look gives")
    func randomNames() {
        let pieces = [
            "tea", "item-", "0", "42", "a", "-", "_", " ", "(1)", ".", "..", "/", "~", "é", "茶",
            "\u{1}", "\u{7F}", "\u{85}", "conflict", "conflicted copy", ".sync-conflict-",
            ".json", ".orig", "json", "#", "%20", String(repeating: "x", count: 120),
        ]
        var random = SeededRandom(seed: 28)
        var taken = 0
        for _ in 0..<20_000 {
            // Half of them named as item files are.
            let name =
                (0..<Int.random(in: 0...5, using: &random)).map { _ in
                    pieces.randomElement(using: &random)!
                }.joined() + (Bool.random(using: &random) ? ".json" : "")
            guard let id = plainID(name) else { continue }
            taken += 1
            #expect(EntryName(name) == .item(id), "\(name)")
        }
        // Enough were plain for the comparison to say something.
        #expect(taken > 2_000)
    }

    @Test("ordinary item names are plain; every other kind of name is left to the full look")
    func kinds() {
        for name in [
            "tea.json", "item-000001.json", "Tea Time (2).json", "a.b.json", "x~y.json",
            String(repeating: "a", count: ItemID.maxLength) + ".json",
        ] {
            #expect(plainID(name) == String(name.dropLast(5)), "\(name)")
        }
        for name in [
            ".json", ".tea.json", "tea.json~", "tea.jsn", "tea.JSON", "thé.json", "tea\u{1}.json",
            "tea\u{7F}.json", "a.json.orig", "tea conflict.json",
            "tea.sync-conflict-20261201-120000-ABCDEF7.json",
            "tea (conflicted copy 2026-12-01).json",
            String(repeating: "a", count: ItemID.maxLength + 1) + ".json",
        ] {
            #expect(plainID(name) == nil, "\(name)")
        }
    }

    @Test("a directory's listing by bytes is the listing of its names read one by one")
    func listing() throws {
        let temp = try TemporaryStore()
        let names = [
            "b.json", "a.json", "thé.json", "item-000002.json", "item-000001.json",
            "tea.sync-conflict-20261201-120000-ABCDEF7.json", "tea.json", ".hidden.json",
            "notes.txt", "tea.json~", "bad\u{1}.json", String(repeating: "z", count: 201) + ".json",
        ]
        // And enough plain ones for the listing's sort of digits (more than 64).
        let numbered = (0..<150).map { "n-" + String(1_000 - $0 * 7) + ".json" }
        for name in names + numbered { try temp.writeFile(name, "{}") }
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        let scanned = try StoreListing(scanning: dir, path: temp.path)
        let read = StoreListing(try DirectoryScan.names(in: dir), path: temp.path)
        let plain = ["a", "b", "item-000001", "item-000002", "tea", "thé"]
        #expect(
            scanned.ids
                == (plain + numbered.map { String($0.dropLast(5)) }).sorted(by: UTF8Key.less))
        #expect(scanned.ids == read.ids)
        #expect(Set(scanned.badNames.keys) == Set(read.badNames.keys))
        #expect(scanned.badNames.count == 2)
        #expect(scanned.conflictNames == read.conflictNames)
        #expect(scanned.conflictNames == ["tea.sync-conflict-20261201-120000-ABCDEF7.json"])
    }
}
