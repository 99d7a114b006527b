import Foundation
import JSONStore
import TestSupport
import Testing

/// Schemas built to hurt: each gets a clear error (file, line, column, keyword) or a
/// bounded check, never a crash or a hang. Each command runs under `timeout 120`: a hang
/// fails the test (status 124) instead of stopping the suite.
@Suite("Schemas at their limits")
struct SchemaLimitTests {
    /// Runs `jsonstore --dir STORE arguments…` under `timeout`, `text` as the file `FILE`.
    private func run(_ temp: TemporaryStore, schema text: String, _ arguments: String)
        async throws -> JSONStoreBinary.Result
    {
        let scratch = try TemporaryStore()
        try scratch.writeFile("schema.json", text)
        return try await shell(
            #"cd "$SCRATCH" && timeout 120 "$JSONSTORE" --dir "$STORE" "# + arguments,
            store: temp, scratch: scratch)
    }

    @Test("10,000 levels of nesting: not JSON past 512 levels, at its line and column")
    func deep() async throws {
        let temp = try TemporaryStore()
        let text =
            String(repeating: #"{"not": "#, count: 10_000) + "true"
            + String(repeating: "}", count: 10_000)
        let result = try await run(temp, schema: text, "schema set schema.json")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("schema.json:1:"), "\(result.stderr)")
        #expect(result.stderr.contains("nested deeper than 512 levels"), "\(result.stderr)")
        #expect(try temp.store.schemaDocument() == nil)
    }

    @Test("100,000 enum values: set, and each item checked by a lookup")
    func manyEnumValues() async throws {
        let temp = try TemporaryStore()
        let values = (0..<100_000).map { "\"v\($0)\"" }.joined(separator: ",")
        let text = #"{"properties": {"code": {"enum": ["# + values + "]}}}"
        for k in 0..<200 { try temp.writeFile("i\(k).json", #"{"code": "v\#(k * 499)"}"#) }
        try temp.writeFile("odd.json", "{\n  \"code\": \"w1\"\n}\n")
        var result = try await run(temp, schema: text, "schema set schema.json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("1 of 201 items break"), "\(result.stderr)")
        result = try await run(temp, schema: text, "check")
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                #"odd.json:2:11: /code: "w1" is not one of "v0", "v1", "v2", "v3", "v4", …"#),
            "\(result.stdout)")
    }

    @Test("a pattern that backtracks catastrophically: the check gives up and names it")
    func catastrophicPattern() async throws {
        let temp = try TemporaryStore()
        let text = #"{"properties": {"code": {"pattern": "^(a+)+$"}}}"#
        try temp.writeFile("slow.json", "{\"code\": \"\(String(repeating: "a", count: 40))b\"}")
        var result = try await run(temp, schema: text, "schema set schema.json")
        #expect(result.status == 0, "\(result.stderr)")
        result = try await run(temp, schema: text, "check")
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("slow.json:1:10: /code: the pattern ^(a+)+$ gave up after"),
            "\(result.stdout)")
    }

    @Test(
        "a $ref cycle, an unresolvable $ref, a pattern that does not compile: refused where",
        arguments: [
            (
                "{\n  \"$defs\": {\"a\": {\"$ref\": \"#/$defs/b\"}, \"b\": {\"$ref\": \"#/$defs/a\"}},\n  \"$ref\": \"#/$defs/a\"\n}",
                "refers to itself without end"
            ),
            (
                "{\n  \"$ref\": \"https://example.com/other.json\"\n}",
                "neither bundled nor registered"
            ),
            ("{\n  \"pattern\": \"(a\"\n}", "does not compile"),
        ])
    func refused(text: String, reason: String) async throws {
        let temp = try TemporaryStore()
        let result = try await run(temp, schema: text, "schema set schema.json")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("schema.json:"), "\(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(try temp.store.schemaDocument() == nil)
    }
}
