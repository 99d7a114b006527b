import JSONStore
import TestSupport
import Testing

@Suite("Item ids")
struct ItemIDTests {
    static let refused: [String] = [
        "", ".", "..", "../x", "../../etc/passwd", "a/b", "/abs", ".hidden", ".jsonstore.lock",
        "nul\u{0}byte", "new\nline", "tab\there", "esc\u{1B}[2J", "bell\u{7}", "del\u{7F}",
        "csi\u{9B}",
        String(repeating: "x", count: 201), String(repeating: "é", count: 101),
    ]

    static let accepted: [String] = [
        "a", "task-1", "with space", "日本語", "emoji-😀", "x.y", "a..b", "trailing.",
        String(repeating: "x", count: 200), "4913", "UPPER_case",
    ]

    @Test("valid ids are accepted", arguments: accepted)
    func accepts(_ id: String) throws {
        #expect(ItemID.problem(with: id) == nil)
        let temp = try TemporaryStore()
        try temp.store.put(id, ["n": 1])
        #expect(try temp.store.item(id)?["n"] == 1)
        #expect(try temp.store.delete(id))
    }

    @Test("refused ids touch nothing, for get, put, update and delete", arguments: refused)
    func refuses(_ id: String) throws {
        let temp = try TemporaryStore()
        try temp.store.put("existing", ["n": 1])
        let before = try temp.names()
        let store = temp.store

        #expect(ItemID.problem(with: id) != nil)
        #expect(throws: StoreError.self) { try ItemID.validate(id) }
        for (operation, attempt) in [
            ("get", { _ = try store.item(id) }),
            ("get typed", { _ = try store.item(id, as: Task.self) }),
            ("put", { try store.put(id, ["n": 2]) }),
            ("put typed", { try store.put(id, ["x": 1] as [String: Int]) }),
            ("update", { try store.update(id, orCreate: [:]) { $0["n"] = 3 } }),
            ("delete", { try store.delete(id) }),
            ("batch put", { try store.write { try $0.put(id, ["n": 4]) } }),
        ] as [(String, () throws -> Void)] {
            do {
                try attempt()
                Issue.record("\(operation) accepted the id \(id.debugDescription)")
            } catch StoreError.Code.invalidID {
                // expected
            } catch {
                Issue.record("\(operation): unexpected error \(error)")
            }
            #expect(try temp.names() == before, "\(operation) changed the directory")
        }
        #expect(temp.readFile("existing.json") == "{\n  \"n\": 1\n}\n")
    }

    @Test("the error message shows control characters escaped")
    func messageIsSafe() {
        do {
            try ItemID.validate("a\u{1B}]0;pwned\u{7}")
        } catch {
            #expect(error.description.contains("^[]0;pwned^G"))
            #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 })
        }
    }
}
