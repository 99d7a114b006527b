import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// Other sync tools' conflict copies are conflicts of their item, never items of their own.
@Suite("Conflict copies of other sync tools")
struct ConflictCopyTests {
    static let copies: [(name: String, origin: String)] = [
        (
            "tea.jsonstore-conflict-20261201-120000-laptop.json",
            "the mirror on laptop at 2026-12-01 12:00:00 UTC"
        ),
        (
            "tea.sync-conflict-20261201-120000-ABCDEF7.json",
            "Syncthing device ABCDEF7 at 2026-12-01 12:00:00"
        ),
        ("tea (conflicted copy 2026-12-01).json", "Dropbox on 2026-12-01"),
        ("tea (Ann's conflicted copy 2026-12-01).json", "Dropbox (Ann) on 2026-12-01"),
        ("tea (Ann's conflicted copy 2026-12-01) (1).json", "Dropbox (Ann) on 2026-12-01"),
        (
            "tea (conflicted copy 2026-12-01 120000).json",
            "Nextcloud or ownCloud at 2026-12-01 12:00:00"
        ),
        ("tea_conflict-20261201-120000.json", "ownCloud at 2026-12-01 12:00:00"),
        ("tea.json.orig", "a merge's backup"),
    ]

    @Test("each tool's name gives the item and where the copy came from", arguments: copies)
    func names(copy: (name: String, origin: String)) {
        let parsed = ConflictName.parse(copy.name)
        #expect(parsed?.id == "tea")
        #expect(parsed?.origin == copy.origin)
        #expect(EntryName(copy.name) == .conflict(of: "tea"))
    }

    @Test(
        "names that only look alike are items",
        arguments: [
            "tea.json", "tea (1).json", "tea.sync-conflict.json", "tea (copy 2026-12-01).json",
            "tea.sync-conflict-2026-12-01-x.json", "a_conflict-x.json",
        ])
    func lookAlikes(name: String) {
        #expect(ConflictName.parse(name) == nil)
        #expect(EntryName(name) == .item(String(name.dropLast(5))))
    }

    /// A store with `tea`, and every tool's copy of it holding another title.
    static func store() throws -> TemporaryStore {
        let temp = try TemporaryStore.tasks()
        for (index, copy) in copies.enumerated() {
            try temp.writeFile(copy.name, "{\n  \"title\": \"copy \(index)\"\n}\n")
        }
        return temp
    }

    @Test("copies are no items, and the store lists each as a conflict of its item")
    func listed() throws {
        let temp = try Self.store()
        let contents = try temp.store.load()
        #expect(contents.items.map(\.id).sorted() == ["bike", "taxes", "tea"])
        #expect(contents.invalid.isEmpty)
        let conflicts = try temp.store.conflicts()
        #expect(conflicts.count == Self.copies.count)
        #expect(conflicts.allSatisfy { $0.id == "tea" })
        #expect(Set(conflicts.map(\.origin)) == Set(Self.copies.map(\.origin)))
        let syncthing = try #require(conflicts.first { $0.origin.hasPrefix("Syncthing") })
        #expect(syncthing.object?["title"] == "copy 1")
        #expect(syncthing.file == temp.path + "/" + Self.copies[1].name)
        #expect(
            syncthing.description
                == "tea: conflict: the version from Syncthing device ABCDEF7 at 2026-12-01 12:00:00, kept in \(syncthing.file)"
        )
        #expect(try temp.store.conflicts(of: "bike").isEmpty)
    }

    @Test("resolve: mine and theirs need the mirror's one version; a merged one becomes the item")
    func resolve() throws {
        let temp = try Self.store()
        for word in [ConflictResolution.mine, .theirs] {
            let refused = #expect(throws: StoreError.self) {
                try temp.store.resolve("tea", keeping: word)
            }
            #expect(refused?.code == .ambiguous)
        }
        #expect(throws: StoreError.self) {
            try temp.store.resolve("tea", keeping: .merged(Array("[1]".utf8)))
        }
        #expect(try temp.store.conflicts().count == Self.copies.count, "a refusal removes nothing")
        let merged = Array("{\n  \"title\": \"merged\"\n}\n".utf8)
        let ended = try temp.store.resolve("tea", keeping: .merged(merged))
        #expect(ended.count == Self.copies.count)
        #expect(try temp.store.conflicts().isEmpty)
        #expect(temp.readFile("tea.json") == String(decoding: merged, as: UTF8.self))
        #expect(
            Set(try temp.names()) == [
                "tea.json", "bike.json", "taxes.json", ".jsonstore.lock", ".jsonstore",
            ])
        #expect(throws: StoreError.self) { try temp.store.resolve("tea", keeping: .mine) }
    }

    @Test("a mirror's kept version is mine: mine becomes the item, theirs leaves it")
    func kept() throws {
        let temp = try TemporaryStore.tasks()
        let mine = Array("{\n  \"title\": \"kept\"\n}\n".utf8)
        let conflict = try temp.store._keepConflict(of: "tea", mine, from: "other host")
        #expect(conflict.origin.hasPrefix("the mirror on other_host at "))
        #expect(conflict.file.hasPrefix(temp.path + "/tea.jsonstore-conflict-"))
        #expect(conflict.isMine)
        #expect(try temp.store.load().items.count == 3, "a kept version is no item")
        #expect(try temp.store.conflicts() == [conflict])
        try temp.store.resolve("tea", keeping: .mine)
        #expect(temp.readFile("tea.json") == String(decoding: mine, as: UTF8.self))
        try temp.store._keepConflict(of: "bike", mine, from: "h")
        let before = temp.readFile("bike.json")
        try temp.store.resolve("bike", keeping: .theirs)
        #expect(temp.readFile("bike.json") == before)
        // Two versions kept: theirs is still the item, mine cannot be told.
        try temp.store._keepConflict(of: "taxes", mine, from: "h")
        try temp.store._keepConflict(of: "taxes", Array("{}\n".utf8), from: "h")
        let refused = #expect(throws: StoreError.self) {
            try temp.store.resolve("taxes", keeping: .mine)
        }
        #expect(refused?.code == .ambiguous)
        #expect(try temp.store.conflicts(of: "taxes").count == 2, "a refusal removes nothing")
        let before2 = temp.readFile("taxes.json")
        try temp.store.resolve("taxes", keeping: .theirs)
        #expect(temp.readFile("taxes.json") == before2)
        #expect(try temp.store.conflicts().isEmpty)
    }

    @Test(
        "a version kept of a 200-byte id from a long host name fits in a name, and is the item's",
        arguments: [String(repeating: "a", count: 200), String(repeating: "é", count: 100)])
    func longName(id: String) throws {
        let temp = try TemporaryStore.tasks()
        try temp.writeFile("\(id).json", "{\n  \"title\": \"long\"\n}\n")
        let mine = Array("{\n  \"title\": \"kept\"\n}\n".utf8)
        let host = String(repeating: "h", count: 300)
        let first = try temp.store._keepConflict(of: id, mine, from: host)
        let second = try temp.store._keepConflict(of: id, mine, from: host)
        for kept in [first, second] {
            #expect(kept.name.utf8.count <= 255, "\(kept.name.utf8.count) bytes")
            #expect(kept.id == id)
        }
        let conflicts = try temp.store.conflicts(of: id)
        #expect(conflicts.map(\.name).sorted() == [first.name, second.name].sorted())
        #expect(try temp.store.load().items.count == 4, "a kept version is no item")
        try temp.store.resolve(id, keeping: .merged(mine))
        #expect(try temp.store.conflicts().isEmpty)
    }

    @Test("a version kept of a 0600 item is 0600 too")
    func keptMode() throws {
        let temp = try TemporaryStore.tasks()
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: temp.path + "/tea.json")
        let kept = try temp.store._keepConflict(of: "tea", Array("{}\n".utf8), from: "h")
        let mode = try FileManager.default.attributesOfItem(atPath: kept.file)[.posixPermissions]
        #expect((mode as? Int) == 0o600, "\(String(describing: mode))")
    }
}
