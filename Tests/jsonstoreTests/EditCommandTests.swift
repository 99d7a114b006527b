import Foundation
import JSONStore
import TestSupport
import Testing

/// `jsonstore edit`: a private copy in a real editor (sed, vim), checked against JSON and
/// the schema before it is put back with compare-and-swap; nothing a person typed is lost.
@Suite("jsonstore edit")
struct EditCommandTests {
    static let schema = """
        {
          "type": "object",
          "properties": {
            "title": {"type": "string", "minLength": 1},
            "status": {"enum": ["todo", "done"]},
            "priority": {"type": "integer", "maximum": 5}
          },
          "required": ["title", "status"],
          "additionalProperties": false
        }
        """

    /// The tasks store with the schema, and an editor script in a folder beside it that
    /// runs step N of `steps` on its Nth call (`$1` is the copy, `$2` the store's value
    /// when it is shown too).
    private func setUp(_ steps: [String], store: TemporaryStore? = nil) throws -> (
        TemporaryStore, [String: String]
    ) {
        let temp = try store ?? TemporaryStore.tasks()
        try temp.store.setSchema(Array(Self.schema.utf8))
        let folder = temp.path + "-editor"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var script = "#!/bin/sh\nn=$(cat '\(folder)/calls' 2>/dev/null || echo 0)\n"
        script += "echo $((n + 1)) > '\(folder)/calls'\ncase $n in\n"
        for (n, step) in steps.enumerated() { script += "\(n)) \(step) ;;\n" }
        script += "esac\n"
        try ExecutableScript.write(script, to: folder + "/editor")
        return (temp, ["VISUAL": folder + "/editor"])
    }

    private func tearDown(_ temp: TemporaryStore, kept: String? = nil) {
        try? FileManager.default.removeItem(atPath: temp.path + "-editor")
        if let kept { try? FileManager.default.removeItem(atPath: kept) }
    }

    /// The folder of the copy a message names as kept (`your text is kept in PATH`).
    private func keptFolder(in stderr: String) -> String? {
        guard let range = stderr.range(of: "your text is kept in ") else { return nil }
        let path = stderr[range.upperBound...].prefix { $0 != "\n" }
        return URL(fileURLWithPath: String(path)).deletingLastPathComponent().path
    }

    @Test("a copy that breaks the schema is shown located, reopened on yes, then saved")
    func reopenUntilValid() async throws {
        let (temp, environment) = try setUp([
            #"sed -i 's/"priority": 2/"priority": 9/' "$1""#,
            #"sed -i 's/"priority": 9/"priority": 3/' "$1""#,
        ])
        defer { tearDown(temp) }
        let result = try await jsonstore(
            temp, ["edit", "tea"], stdin: "y\n", environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("/tea.json:4:15: /priority: 9 is greater than the maximum 5"))
        #expect(result.stderr.contains("reopen the editor on your text? [Y/n]"))
        #expect(try temp.store.item("tea")?["priority"] == 3)
        #expect(temp.readFile(".jsonstore/../tea.json")?.contains("\"priority\": 3") == true)
    }

    @Test("giving up keeps your text where it says, and writes nothing")
    func giveUp() async throws {
        let (temp, environment) = try setUp([#"printf '{"title": "Tea", ' > "$1""#])
        let before = temp.readFile("tea.json")
        let result = try await jsonstore(
            temp, ["edit", "tea"], stdin: "n\n", environment: environment)
        let kept = keptFolder(in: result.stderr)
        defer { tearDown(temp, kept: kept) }
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("/tea.json:1:18: unexpected end of input"), "\(result.stderr)")
        #expect(result.stderr.contains("tea not saved"))
        let copy = try #require(kept).appending("/tea.json")
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == #"{"title": "Tea", "#)
        #expect(temp.readFile("tea.json") == before)
    }

    @Test("a change made meanwhile reopens the editor with both; yours saved again is put")
    func changedMeanwhile() async throws {
        let binary = JSONStoreBinary.path
        let temp = try TemporaryStore.tasks()
        let (_, environment) = try setUp(
            [
                // While the editor is open, another writer changes the item.
                "'\(binary)' --dir \"$STORE\" set tea status=done >/dev/null && "
                    + #"sed -i 's/Make tea/Make green tea/' "$1""#,
                #"test -n "$2" && grep -q '"done"' "$2" && sed -i 's/green/jasmine/' "$1""#,
            ], store: temp)
        defer { tearDown(temp) }
        var env = environment
        env["STORE"] = temp.path
        let result = try await jsonstore(temp, ["edit", "tea"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("tea changed meanwhile"))
        let item = try #require(try temp.store.item("tea"))
        #expect(item["title"] == "Make jasmine tea")
        #expect(item["status"] == "todo", "yours, saved again, is what is put")
    }

    @Test("vim: a real save of the copy is checked and put")
    func vim() async throws {
        let (temp, _) = try setUp([])
        defer { tearDown(temp) }
        let environment = ["VISUAL": #"vim -Es -u NONE -c '%s/"todo"/"done"/' -c wq"#]
        let result = try await jsonstore(temp, ["edit", "tea"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try temp.store.item("tea")?["status"] == "done")
        // Left as it was: nothing happens.
        let unchanged = try await jsonstore(
            temp, ["edit", "tea"], environment: ["VISUAL": "true"])
        #expect(unchanged.status == 0)
        #expect(unchanged.stderr == "jsonstore: tea: no change\n")
    }

    @Test("edit --new starts from the schema's required members")
    func newFromSchema() async throws {
        let (temp, environment) = try setUp([
            #"grep -q '"status": "todo"' "$1" && sed -i 's/"title": ""/"title": "Walk"/' "$1""#
        ])
        defer { tearDown(temp) }
        var result = try await jsonstore(temp, ["edit", "--new", "walk"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let item = try #require(try temp.store.item("walk"))
        #expect(item.object == ["id": "walk", "title": "Walk", "status": "todo"])
        result = try await jsonstore(temp, ["edit", "--new", "walk"], environment: environment)
        #expect(result.status == 1)
        #expect(result.stderr.contains("walk exists already"))
        result = try await jsonstore(temp, ["edit", "nope"], environment: environment)
        #expect(result.status == 1)
    }
}
