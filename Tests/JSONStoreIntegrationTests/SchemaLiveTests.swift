import Dispatch
import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// The store's schema, live: every item checked on load and on every change by any
/// writer, every item checked again when the schema changes (by the library or by hand),
/// a broken schema reported while the last valid one stays in force.
@Suite("Schema, live")
struct SchemaLiveTests {
    /// Ranks 0 to 9, titles required, no other members.
    static let schema = """
        {
          "type": "object",
          "properties": {
            "title": {"type": "string"},
            "rank": {"type": "integer", "maximum": 9}
          },
          "required": ["title"],
          "additionalProperties": false
        }
        """

    @Test("a hand edit that breaks the schema keeps the last value, flagged where it is")
    func handEditBreaks() async throws {
        let f = try LiveFixture(startObserving: false)
        try f.store.setSchema(Array(Self.schema.utf8))
        f.startObserving()
        #expect(await f.started())
        f.writeInPlace("b.json", "{\n  \"title\": \"b\",\n  \"rank\": 12\n}\n")
        #expect(await f.recorder.wait { $0.results.invalid.map(\.name) == ["b.json"] })
        let error = try #require(f.recorder.current.results.error(for: "b"))
        #expect(error.code == .schemaViolation)
        #expect(error.violations.count == 1)
        let violation = try #require(error.violations.first)
        #expect(violation.instancePath == "/rank")
        #expect(violation.keywordLocation == "/properties/rank/maximum")
        #expect((violation.line, violation.column) == (3, 11))
        #expect((error.line, error.column) == (3, 11))
        #expect(f.recorder.current.results.map(\.id) == ["a", "b", "c"])
        #expect(f.recorder.current.results[1]["rank"] == 1)  // the last valid value

        f.writeInPlace("b.json", "{\n  \"title\": \"b\",\n  \"rank\": 5\n}\n")
        #expect(await f.recorder.wait { $0.results.invalid.isEmpty })
        #expect(f.recorder.current.results[1]["rank"] == 5)
        #expect(f.recorder.current.updates.last?.resolved == ["b.json"])
        #expect(f.recorder.current.violations == [])
    }

    @Test("an item that breaks the schema when observing starts is reported, not inserted")
    func brokenAtStart() async throws {
        let f = try LiveFixture(startObserving: false)
        try f.store.setSchema(Array(Self.schema.utf8))
        try f.temp.writeFile("d.json", "{\n  \"rank\": 1,\n  \"stauts\": \"done\"\n}\n")
        f.startObserving()
        #expect(await f.started())
        let results = f.recorder.current.results
        #expect(results.map(\.id) == ["a", "b", "c"])
        let error = try #require(results.error(for: "d"))
        let messages = error.violations.map { "\($0.instancePath): \($0.message)" }
        #expect(messages.contains(": the member \"title\" is missing"), "\(messages)")
        #expect(messages.contains("/stauts: not allowed here"), "\(messages)")
        // `load` agrees with the observer.
        let contents = try f.store.load()
        #expect(contents.items.map(\.id) == ["a", "b", "c"])
        #expect(contents.invalid.map(\.name) == ["d.json"])
    }

    @Test("setting, changing and removing the schema re-checks every item in one update")
    func schemaChangesRecheck() async throws {
        let f = try LiveFixture(ids: ["a", "b", "c", "d", "e"], startObserving: false)
        f.startObserving()
        #expect(await f.started())
        // Ranks 0 to 4: a maximum of 2 leaves d and e invalid, flagged with their values.
        try f.store.setSchema(Array(Self.schema.replacingOccurrences(of: "9", with: "2").utf8))
        #expect(await f.recorder.wait { $0.results.invalid.count == 2 })
        var updates = f.recorder.current.updates
        #expect(updates.count == 1)
        #expect(updates.last?.invalid.map(\.name) == ["d.json", "e.json"])
        #expect(f.recorder.current.results.map(\.id) == ["a", "b", "c", "d", "e"])

        try f.store.setSchema(Array(Self.schema.utf8))
        #expect(await f.recorder.wait { $0.results.invalid.isEmpty })
        updates = f.recorder.current.updates
        #expect(updates.count == 2)
        #expect(Set(updates.last?.resolved ?? []) == ["d.json", "e.json"])

        // A schema no item obeys, then none at all.
        try f.store.setSchema(Array(#"{"required": ["owner"]}"#.utf8))
        #expect(await f.recorder.wait { $0.results.invalid.count == 5 })
        #expect(f.recorder.current.updates.count == 3)
        #expect(try f.store.removeSchema())
        #expect(await f.recorder.wait { $0.results.invalid.isEmpty })
        #expect(f.recorder.current.updates.count == 4)
        #expect(f.recorder.current.violations == [])
    }

    @Test("a hand-edited schema that is broken is reported; the last valid one stays in force")
    func brokenSchemaByHand() async throws {
        let f = try LiveFixture(startObserving: false)
        try f.store.setSchema(Array(Self.schema.utf8))
        f.startObserving()
        #expect(await f.started())
        let schemaFile = f.path + "/.jsonstore/schema.json"
        f.writeInPlace(".jsonstore/schema.json", "{\n  \"type\": \"object\",\n  \"required\": [\n")
        #expect(
            await f.recorder.wait {
                $0.results.invalid.map(\.name) == [".jsonstore/schema.json"]
            })
        let problem = try #require(f.recorder.current.results.invalid.first?.error)
        #expect(problem.code == .invalidSchema)
        #expect(problem.file == schemaFile)
        #expect(problem.line == 4)
        // The schema before the edit still holds.
        f.writeInPlace("c.json", "{\n  \"rank\": 2\n}\n")
        #expect(await f.recorder.wait { $0.results.invalid.count == 2 })
        #expect(f.recorder.current.results.error(for: "c")?.code == .schemaViolation)

        // A schema that is JSON but not a schema: reported by its keyword.
        f.writeInPlace(".jsonstore/schema.json", #"{"type": "strnig"}"#)
        #expect(
            await f.recorder.wait {
                $0.results.invalid.first { $0.id == nil }?.error.message.contains("/type") == true
            })
        // Fixed: the new schema is in force, the problem resolved.
        f.writeInPlace(".jsonstore/schema.json", #"{"type": "object"}"#)
        #expect(await f.recorder.wait { $0.results.invalid.isEmpty })
        #expect(f.recorder.current.results.first { $0.id == "c" }?["rank"] == 2)
        #expect(f.recorder.current.violations == [])
    }

    @Test("a schema set where no private folder was yet is seen", arguments: [false, true])
    func folderMadeLater(polling: Bool) async throws {
        var options = JSONStore.Options()
        options.keepsHistory = false
        options.keepsStartCache = false
        if polling { options.watchMode = .polling(interval: 0.05) }
        let f = try LiveFixture(options: options)
        #expect(await f.started())
        #expect(!FileManager.default.fileExists(atPath: f.path + "/.jsonstore"))
        try f.store.setSchema(Array(#"{"properties": {"rank": {"maximum": 0}}}"#.utf8))
        #expect(await f.recorder.wait { $0.results.invalid.map(\.name) == ["b.json", "c.json"] })
        // The folder removed whole takes the schema with it.
        try FileManager.default.removeItem(atPath: f.path + "/.jsonstore")
        #expect(await f.recorder.wait { $0.results.invalid.isEmpty })
        #expect(f.recorder.current.violations == [])
    }

    @Test("a mode of warn reports only: items stay valid, writes go through")
    func warnMode() async throws {
        let f = try LiveFixture(startObserving: false)
        let warn = Self.schema.replacingOccurrences(
            of: "\"type\": \"object\",",
            with: "\"type\": \"object\", \"x-jsonstore-mode\": \"warn\",")
        try f.store.setSchema(Array(warn.utf8))
        f.startObserving()
        #expect(await f.started())
        try f.store.put("b", ["title": "b", "rank": 30])
        #expect(await f.recorder.wait { $0.results.first { $0.id == "b" }?["rank"] == 30 })
        #expect(f.recorder.current.results.invalid.isEmpty)
        #expect(try f.store.load().invalid.isEmpty)
    }
}
