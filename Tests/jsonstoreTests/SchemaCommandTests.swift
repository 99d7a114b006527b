import Foundation
import JSONStore
import TestSupport
import Testing

/// `jsonstore schema` and the schema where the other commands meet it: `check`'s lines,
/// a refused `set`, the stream's `invalid` entries.
@Suite("jsonstore schema")
struct SchemaCommandTests {
    static let schema = """
        {
          "type": "object",
          "properties": {
            "title": {"type": "string"},
            "status": {"enum": ["todo", "done"]},
            "priority": {"type": "integer", "maximum": 5}
          },
          "required": ["title"],
          "additionalProperties": false
        }

        """

    /// A file of `text` in a folder of its own beside the store; its path.
    private func file(_ temp: TemporaryStore, _ name: String, _ text: String) throws -> String {
        let folder = temp.path + "-files"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    private func removeFiles(_ temp: TemporaryStore) {
        try? FileManager.default.removeItem(atPath: temp.path + "-files")
    }

    @Test("validate: exit 0 when all are valid, 1 with each error located, 64 for a bad schema")
    func validate() async throws {
        let temp = try TemporaryStore()
        defer { removeFiles(temp) }
        let schema = try file(temp, "schema.json", Self.schema)
        let good = try file(temp, "good.json", #"{"title": "Tea", "priority": 2}"#)
        let bad = try file(temp, "bad.json", "{\n  \"title\": 3,\n  \"priority\": 9\n}\n")
        var result = try await jsonstore(temp, ["schema", "validate", schema, good])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        result = try await jsonstore(temp, ["schema", "validate", schema, good, bad])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                \(bad):2:12: /title: 3 is not of type string (type at /properties/title/type)
                \(bad):3:15: /priority: 9 is greater than the maximum 5 (maximum at /properties/priority/maximum)

                """)
        // Any value, from standard input; a document that is not JSON says where.
        result = try await jsonstore(temp, ["schema", "validate", schema, "-"], stdin: "[1]")
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("<stdin>:1:1: /: an array is not of type object"))
        result = try await jsonstore(temp, ["schema", "validate", schema], stdin: "{\"title\": ")
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("<stdin>:1:11: not JSON: "))
        // For programs: one line per document.
        result = try await jsonstore(temp, ["schema", "validate", "-o", "json", schema, good, bad])
        let lines = result.stdout.split(separator: "\n").map { try? JSONReader().read(String($0)) }
        #expect(lines.count == 2)
        #expect(lines[0]?.objectValue?["valid"] == true)
        let errors = lines[1]?.objectValue?["errors"]?.arrayValue ?? []
        #expect(errors.count == 2)
        #expect(errors.first?.objectValue?["path"] == "/title")
        #expect(errors.first?.objectValue?["line"] == 2)
        // A schema that is not one: 64, with where and why.
        let broken = try file(temp, "broken.json", "{\n  \"type\": \"strnig\"\n}\n")
        result = try await jsonstore(temp, ["schema", "validate", broken, good])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("jsonstore: \(broken):2:11: not a 2020-12 schema: /type"))
    }

    @Test("set, show, remove; a bad schema refused with its place, the one in force kept")
    func setShowRemove() async throws {
        let temp = try TemporaryStore.tasks()
        defer { removeFiles(temp) }
        var result = try await jsonstore(temp, ["schema", "show"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has no schema"))
        result = try await jsonstore(temp, ["schema", "set", "-"], stdin: Self.schema)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        result = try await jsonstore(temp, ["schema", "show"])
        #expect(result.stdout == Self.schema)
        #expect(temp.readFile(".jsonstore/.gitignore") == "*\n!/schema.json\n")

        let bad = try file(
            temp, "bad.json", "{\n  \"properties\": {\"a\": {\"pattern\": \"(\"}}\n}\n")
        result = try await jsonstore(temp, ["schema", "set", bad])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("jsonstore: \(bad):2:35: /properties/a/pattern: "))
        #expect(try await jsonstore(temp, ["schema", "show"]).stdout == Self.schema)

        // A schema some items break: set, and said.
        let strict = Self.schema.replacingOccurrences(of: "5", with: "1")
        result = try await jsonstore(temp, ["schema", "set", "-"], stdin: strict)
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "jsonstore: 2 of 3 items break the schema (jsonstore check lists them)\n")
        result = try await jsonstore(temp, ["schema", "set", "--mode", "warn", "-"], stdin: strict)
        #expect(
            try await jsonstore(temp, ["schema", "show"]).stdout.contains(
                "\"x-jsonstore-mode\": \"warn\""))

        result = try await jsonstore(temp, ["schema", "remove"])
        #expect(result.status == 0)
        #expect(try await jsonstore(temp, ["schema", "remove"]).status == 1)
    }

    @Test("check prints each violation where it is; a refused set names the slip")
    func checkAndRefusal() async throws {
        let temp = try TemporaryStore.tasks()
        #expect(try await jsonstore(temp, ["schema", "set", "-"], stdin: Self.schema).status == 0)
        try temp.writeFile(
            "tea.json",
            "{\n  \"title\": \"Make tea\",\n  \"status\": \"todo\",\n  \"priority\": 9\n}\n")
        var result = try await jsonstore(temp, ["check"])
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "\(temp.path)/tea.json:4:15: /priority: 9 is greater than the maximum 5\n")

        result = try await jsonstore(temp, ["set", "bike", "stauts=done"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/stauts: not allowed here; did you mean status?"))
        #expect(temp.readFile("bike.json")?.contains("stauts") == false)
        // Ratcheting: tea's priority was broken by hand; its status can still be set.
        result = try await jsonstore(temp, ["set", "tea", "status=done"])
        #expect(result.status == 0, "\(result.stderr)")

        // A broken schema is a problem check reports; the items are not judged by it.
        try temp.writeFile(".jsonstore/schema.json", "{\n  \"type\": [\n")
        result = try await jsonstore(temp, ["check"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(temp.path)/.jsonstore/schema.json:3:1: not JSON: "))
    }

    @Test("the stream's invalid entry carries the schema's errors, each located")
    func streamEntry() async throws {
        let temp = try TemporaryStore.tasks()
        #expect(try await jsonstore(temp, ["schema", "set", "-"], stdin: Self.schema).status == 0)
        let path = temp.path
        let line = try await blocking { () -> String? in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
            process.arguments = ["--dir", path, "list", "--follow", "--json"]
            let pipe = ChildOutput.pipe()
            process.standardOutput = pipe
            try process.run()
            defer { HelperProcess.stop(process) }
            let reader = LineReader(pipe)
            _ = reader.next(within: 20)  // the initial event
            try "{\n  \"title\": \"Make tea\",\n  \"priority\": 9\n}\n".write(
                toFile: path + "/tea.json", atomically: false, encoding: .utf8)
            return reader.next(until: { $0.contains("\"schema\"") }, within: 20)
        }
        let event = try JSONValue(parsing: try #require(line))
        let entry = try #require(event["invalid"]?.arrayValue?.first)
        #expect(entry["id"] == "tea")
        #expect(entry["line"] == 3)
        #expect(
            entry["schema"] == [
                [
                    "path": "/priority", "keyword": "/properties/priority/maximum",
                    "message": "9 is greater than the maximum 5", "line": 3, "column": 15,
                ]
            ])
    }

    @Test("infer: types, integer where whole, required, enum for few strings over many")
    func infer() async throws {
        let temp = try TemporaryStore()
        for n in 0..<12 {
            try temp.writeFile(
                "t\(n).json",
                """
                {"title": "T\(n)", "status": "\(n % 3 == 0 ? "done" : "todo")", "rank": \(n).0,
                 "weight": \(n).5, "tags": ["a"], "owner": {"name": "x"\(n == 0 ? ", \"team\": 1" : "")}}
                """)
        }
        let result = try await jsonstore(temp, ["schema", "infer", "--write"])
        #expect(result.status == 0, "\(result.stderr)")
        let schema = try JSONReader().read(result.stdout)
        let properties = schema.objectValue?["properties"]?.objectValue
        #expect(properties?["title"] == ["type": "string"])
        #expect(properties?["status"] == ["enum": ["done", "todo"]])
        #expect(properties?["rank"] == ["type": "integer"])
        #expect(properties?["weight"] == ["type": "number"])
        #expect(properties?["tags"] == ["type": "array", "items": ["type": "string"]])
        #expect(
            properties?["owner"]?.objectValue?["required"] == ["name"],
            "team is in one owner only")
        #expect(schema.objectValue?["required"]?.arrayValue?.count == 6)
        // Written, and every item satisfies it.
        #expect(try await jsonstore(temp, ["check"]).status == 0)
        #expect(try await jsonstore(temp, ["schema", "show"]).stdout == result.stdout)
    }
}
