import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// `undo`, `item(_:at:)` and the guard on what changed since, on real directories.
@Suite("History: undo and versions")
struct UndoTests {
    @Test("undo reverts one change; members it did not touch stay as they are now")
    func undoOneChange() throws {
        let temp = try TemporaryStore()
        let store = temp.store
        try store.put("tea", ["title": "Make tea", "status": "open", "tags": ["home"]])
        try store.update("tea") { $0["status"] = "done" }  // revision 2
        try store.update("tea") { $0["title"] = "Green tea" }  // revision 3
        try store.undo("tea", revision: 2)
        let now = try #require(try store.item("tea")).object
        #expect(now["status"] == "open")
        #expect(now["title"] == "Green tea")
        // The undo is a revision of its own, a modification that can be undone.
        let last = try #require(try store.history(of: "tea").first)
        #expect(last.revision == 4 && last.changes.map(\.path) == ["/status"])
        try store.undo("tea")
        #expect(try store.item("tea")?["status"] == "done")
    }

    @Test("a member changed since is a refusal naming it; nothing is written")
    func refused() throws {
        let temp = try TemporaryStore()
        let store = temp.store
        try store.put("tea", ["title": "Make tea", "status": "open"])
        try store.update("tea") { $0["title"] = "Tea" }  // revision 2
        // By hand, while nothing watched: found and recorded before the undo decides.
        try temp.writeFile("tea.json", "{\"title\": \"Black tea\", \"status\": \"open\"}\n")
        let before = temp.readFile("tea.json")
        #expect {
            try store.undo("tea", revision: 2)
        } throws: { error in
            let error = error as? StoreError
            return error?.code == .changed
                && error?.message == "not undone: /title changed since 2"
                && error?.file == temp.path + "/tea.json"
        }
        #expect(temp.readFile("tea.json") == before)
        #expect(try store.history(of: "tea").first?.isLate == true)
    }

    @Test("undoing a deletion brings the item back; undoing a creation deletes it")
    func creationAndDeletion() throws {
        let temp = try TemporaryStore()
        let store = temp.store
        try store.put("tea", ["title": "Make tea"])
        try store.delete("tea")
        try store.undo("tea")
        #expect(try store.item("tea")?["title"] == "Make tea")
        try store.put("bike", ["title": "Fix it"])
        try store.undo("bike")
        #expect(try store.item("bike") == nil)
        // A creation changed since is not undone: the member added is named.
        try store.put("taxes", ["title": "File"])
        try store.update("taxes") { $0["due"] = "April" }
        #expect(throws: StoreError.self) { try store.undo("taxes", revision: 6) }
        #expect(try store.item("taxes") != nil)
    }

    @Test("undo --op: a multi-id delete comes back in one batch, all or nothing")
    func undoOperation() throws {
        let temp = try TemporaryStore()
        let store = temp.store
        for id in ["a", "b", "c"] { try store.put(id, ["n": .string(id)]) }
        try store.write { tx in
            try tx.delete("a")
            try tx.delete("b")
        }
        let operation = try #require(try store.history().first?.operation)
        // One of them made again by hand: the whole undo is refused, nothing written.
        try temp.writeFile("b.json", "{\"n\": \"again\"}\n")
        #expect(throws: StoreError.self) { try store.undo(operation: operation) }
        #expect(try store.item("a") == nil)
        try FileManager.default.removeItem(atPath: temp.path + "/b.json")
        try store.undo(operation: operation)
        #expect(try store.item("a")?["n"] == "a")
        #expect(try store.item("b")?["n"] == "b")
        // Its entries are one operation of their own.
        let undone = try store.history().prefix(2)
        #expect(Set(undone.map(\.id)) == ["a", "b"] && Set(undone.map(\.operation)).count == 1)
    }

    @Test("item(_:at:) rebuilds any version, across whole values kept every 16 changes")
    func versions() throws {
        let temp = try TemporaryStore()
        for n in 0..<40 { try temp.store.put("counter", ["n": .number(JSONNumber(n))]) }
        for revision in [1, 15, 16, 17, 33, 40] {
            #expect(
                try temp.store.item("counter", at: revision) == [
                    "n": .number(JSONNumber(revision - 1))
                ])
        }
        #expect(throws: StoreError.self) { try temp.store.item("other", at: 3) }
    }
}

extension UndoTests {
    @Test("an item first seen is where its history begins: not undone, nor a creation after")
    func baseline() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("tea.json", #"{"title": "Tea", "status": "todo"}"#)
        // The first look: tea was there before the journal, so it is first seen.
        let first = try temp.store.history()
        #expect(first.map(\.id) == ["tea"] && first.first?.isBaseline == true)
        #expect(throws: StoreError.self) { try temp.store.undo("tea") }
        #expect(try temp.store.item("tea")?["status"] == "todo")
        // A file made after that look is a creation, found late; it can be undone.
        try temp.writeFile("cake.json", #"{"title": "Cake"}"#)
        let cake = try #require(try temp.store.history(of: "cake").first)
        #expect(cake.kind == .created && cake.isLate && !cake.isBaseline)
        // A hand edit after the first look is a change, with what it changed.
        try temp.writeFile("tea.json", #"{"title": "Tea", "status": "done"}"#)
        let edit = try #require(try temp.store.history(of: "tea").first)
        #expect(edit.kind == .modified && edit.changes.map(\.path) == ["/status"])
        try temp.store.undo("tea")
        #expect(try temp.store.item("tea")?["status"] == "todo")
    }
}

extension UndoTests {
    @Test("an item made after a revision did not exist at it; one first seen later is not known")
    func beforeCreation() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["title": "A"])
        try temp.store.put("b", ["title": "B"])
        #expect(try temp.store.item("b", at: 1) == nil)
        #expect(try temp.store.item("b", at: 2) == ["title": "B"])
        // Made by hand, found by the first whole look: it may have been there before.
        try temp.writeFile("c.json", #"{"title": "C"}"#)
        _ = try temp.store.history()
        #expect {
            try temp.store.item("c", at: 2)
        } throws: { error in
            (error as? StoreError)?.message.contains("begins at 3, where it was first seen") == true
        }
    }
}
