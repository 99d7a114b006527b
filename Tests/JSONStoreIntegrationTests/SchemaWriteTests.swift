import Foundation
import JSONStore
import TestSupport
import Testing

/// Writes through the store under its schema: refused whole when they would make an item
/// break it, with a suggestion for a misspelt member; an error the write did not make
/// (a hand edit's) does not block it (ratcheting).
@Suite("Schema, writes")
struct SchemaWriteTests {
    static let schema = """
        {
          "type": "object",
          "properties": {
            "title": {"type": "string", "minLength": 1},
            "status": {"enum": ["todo", "done"]},
            "priority": {"type": "integer", "minimum": 1, "maximum": 5}
          },
          "required": ["title"],
          "additionalProperties": false
        }
        """

    private func tasks() throws -> TemporaryStore {
        let temp = try TemporaryStore.tasks()
        try temp.store.setSchema(Array(Self.schema.utf8))
        return temp
    }

    @Test("a put that breaks the schema is refused, naming the path, the rule and the value")
    func refused() throws {
        let temp = try tasks()
        let before = temp.readFile("tea.json")
        let error = #expect(throws: StoreError.self) {
            try temp.store.put("tea", ["title": "Make tea", "priority": 9])
        }
        #expect(error?.code == .schemaViolation)
        #expect(error?.file == temp.path + "/tea.json")
        #expect(error?.message.contains("/priority: 9 is greater than the maximum 5") == true)
        #expect(error?.violations.map(\.keywordLocation) == ["/properties/priority/maximum"])
        #expect(temp.readFile("tea.json") == before)
    }

    @Test("a misspelt member is refused with the name it is a slip for")
    func suggestion() throws {
        let temp = try tasks()
        let error = #expect(throws: StoreError.self) {
            try temp.store.update("tea") { $0["stauts"] = "done" }
        }
        #expect(error?.violations.map(\.message) == ["not allowed here; did you mean status?"])
        #expect(error?.violations.first?.instancePath == "/stauts")
        let cased = #expect(throws: StoreError.self) {
            try temp.store.update("tea") { $0["Title"] = "x" }
        }
        #expect(cased?.violations.first?.message == "not allowed here; did you mean title?")
    }

    @Test("a batch with one write that breaks the schema writes nothing")
    func batchRefusedWhole() throws {
        let temp = try tasks()
        let before = try temp.itemFiles()
        #expect(throws: StoreError.self) {
            try temp.store.write { batch in
                try batch.put("new", ["title": "New"])
                try batch.delete("bike")
                try batch.put("other", ["title": ""])
            }
        }
        #expect(try temp.itemFiles() == before)
        #expect(try temp.store.item("new") == nil)
        #expect(try temp.store.item("bike") != nil)
    }

    @Test("ratcheting: an item broken by hand can have another member set, and stays flagged")
    func ratcheting() throws {
        let temp = try tasks()
        try temp.writeFile(
            "tea.json",
            "{\n  \"title\": \"Make tea\",\n  \"status\": \"todo\",\n  \"priority\": 9\n}\n")
        #expect(throws: StoreError.self) { try temp.store.item("tea") }
        // The priority the hand edit broke is left alone: the write goes through.
        try temp.store.update("tea") { $0["status"] = "done" }
        #expect(temp.readFile("tea.json")?.contains("\"done\"") == true)
        let flagged = #expect(throws: StoreError.self) { try temp.store.item("tea") }
        #expect(flagged?.code == .schemaViolation)
        // Changing the broken member to another broken value is refused.
        #expect(throws: StoreError.self) {
            try temp.store.update("tea") { $0["priority"] = 10 }
        }
        // A missing required member, missing before, blocks nothing either.
        try temp.writeFile("bike.json", "{\n  \"status\": \"done\"\n}\n")
        try temp.store.update("bike") { $0["status"] = "todo" }
        // But a new error beside an old one is refused.
        #expect(throws: StoreError.self) {
            try temp.store.update("bike") { $0["priority"] = 0 }
        }
        // And fixing it is welcome.
        try temp.store.update("tea") { $0["priority"] = 2 }
        #expect(try temp.store.item("tea")?["priority"] == 2)
    }

    @Test("a schema that is not a schema is refused with its line, column and keyword")
    func badSchemaRefused() throws {
        let temp = try tasks()
        let text =
            "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"a\": {\"minimum\": \"5\"}\n  }\n}\n"
        let error = #expect(throws: StoreError.self) { try temp.store.setSchema(Array(text.utf8)) }
        #expect(error?.code == .invalidSchema)
        #expect(error?.line == 4)
        #expect(error?.message.contains("/properties/a/minimum") == true)
        // The schema in force is still the one before.
        #expect(try temp.store.schemaDocument() == Array(Self.schema.utf8))
        let pattern = #"{"pattern": "a("}"#
        let refused = #expect(throws: StoreError.self) {
            try temp.store.setSchema(Array(pattern.utf8))
        }
        #expect(refused?.message.contains("/pattern") == true)
        #expect(refused?.column == 13)
        let unknown = #expect(throws: StoreError.self) {
            try temp.store.setSchema(Array(#"{"$ref": "https://example.com/other.json"}"#.utf8))
        }
        #expect(unknown?.message.contains("example.com") == true)
        #expect(try temp.store.schemaDocument() == Array(Self.schema.utf8))
    }
}
