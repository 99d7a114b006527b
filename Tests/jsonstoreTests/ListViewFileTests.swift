import Glibc
import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// Enter in the list view: the selected row's file as it is on disk, an invalid file's
/// raw text with its error, read again when a change touches it.
@Suite("The list view's file view")
struct ListViewFileTests {
    static let broken = StoreError(
        code: .invalidJSON, message: "expected a value, found 'b'", file: "s/bad.json", line: 2,
        column: 12)

    /// Three items and an invalid file that never was an item.
    func modelWithInvalidRow() -> ListModel {
        var (_, snapshot) = makeResults(3)
        snapshot.invalid[UTF8Key("bad.json")] = InvalidFile(
            name: "bad.json", id: "bad", error: Self.broken)
        return liveModel(Results<Item>.initial(.all, snapshot, coder: .items))
    }

    func screen(_ model: inout ListModel) -> String {
        model.frame(width: 100, height: 12, now: 1).text.joined(separator: "\n")
    }

    @Test("an item's file is shown as it is: no \"id\" member the file does not have")
    func itemFile() {
        var model = modelWithInvalidRow()
        _ = model.handle(.enter, page: 9)
        #expect(model.fileToRead == "item-000000.json")
        #expect(screen(&model).contains("reading…"))
        model.showFile(
            "item-000000.json", .success(Array("{\n  \"title\": \"Task 0\",\n\t\"n\": 0\n}\n".utf8))
        )
        #expect(model.fileToRead == nil)
        let text = screen(&model)
        #expect(text.contains("item-000000.json"))
        #expect(text.contains("  \"title\": \"Task 0\","))
        #expect(text.contains("\\t\"n\": 0"), "a tab is shown, escaped")
        #expect(!text.contains("\"id\""))
        _ = model.handle(.escape, page: 9)
        #expect(model.detail == nil && screen(&model).contains("q quit"))
    }

    @Test("Enter on an invalid row shows the file's raw text and its error")
    func invalidFile() {
        var model = modelWithInvalidRow()
        _ = model.handle(.end, page: 9)
        _ = model.handle(.enter, page: 9)
        #expect(model.fileToRead == "bad.json")
        model.showFile("bad.json", .success(Array("{\n  \"title\": broken\n}\n".utf8)))
        let text = screen(&model)
        #expect(text.contains("bad.json  invalid: s/bad.json:2:12: expected a value, found 'b'"))
        #expect(text.contains("\"title\": broken"))
    }

    @Test("a file that cannot be read, or is gone, says so")
    func unreadable() {
        var model = modelWithInvalidRow()
        _ = model.handle(.enter, page: 9)
        model.showFile("item-000000.json", .success(nil))
        #expect(screen(&model).contains("the file was removed"))
        let fifo = StoreError(
            code: .notRegularFile, message: "not a regular file (a FIFO)",
            file: "s/item-000000.json")
        model.showFile("item-000000.json", .failure(fifo))
        #expect(screen(&model).contains("s/item-000000.json: not a regular file (a FIFO)"))
        model.showFile("other.json", .success([]))
        #expect(screen(&model).contains("not a regular file"), "another file's bytes are not shown")
    }

    @Test("a change to the file shown asks for it to be read again; other changes do not")
    func rereadOnChange() {
        var (results, snapshot) = makeResults(5)
        var model = liveModel(results)
        _ = model.handle(.down, page: 9)
        _ = model.handle(.enter, page: 9)
        model.showFile("item-000001.json", .success(Array("{}".utf8)))
        var change = modify(results, &snapshot, id: "item-000003", title: "Other")
        if case .update(let next, _) = change { results = next }
        model.apply(change, now: 2, clock: "")
        #expect(model.fileToRead == nil)
        change = modify(results, &snapshot, id: "item-000001", title: "Changed")
        model.apply(change, now: 3, clock: "")
        #expect(model.fileToRead == "item-000001.json")
    }

    @Test("the app reads the file safely: as it is, missing as nil, never a FIFO or a symlink")
    func readingTheFile() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("tea.json", "{\"title\": \"Tea\"}\n")
        try temp.writeFile("bad.json", "{\n  \"title\": broken\n}\n")
        #expect(mkfifo(temp.path + "/fifo.json", 0o644) == 0)
        #expect(symlink("/etc/passwd", temp.path + "/link.json") == 0)
        #expect(
            try temp.store._fileBytes(named: "tea.json") == Array("{\"title\": \"Tea\"}\n".utf8))
        #expect(
            try temp.store._fileBytes(named: "bad.json")
                == Array("{\n  \"title\": broken\n}\n".utf8))
        #expect(try temp.store._fileBytes(named: "gone.json") == nil)
        // does not block
        #expect(throws: StoreError.self) { try temp.store._fileBytes(named: "fifo.json") }
        #expect(throws: StoreError.self) { try temp.store._fileBytes(named: "link.json") }
        for name in ["../etc/passwd", "a/b.json", "..", ""] {
            #expect(throws: StoreError.self) { try temp.store._fileBytes(named: name) }
        }
    }
}
