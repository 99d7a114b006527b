import JSONStore
import TestSupport
import Testing

@Suite("JSON writer")
struct JSONWriterTests {
    @Test("pretty output: 2-space indent, empty containers inline, trailing newline")
    func prettyFormat() {
        let value: JSONValue = ["a": 1, "b": [true, nil], "c": [:], "d": []]
        let expected = """
            {
              "a": 1,
              "b": [
                true,
                null
              ],
              "c": {},
              "d": []
            }

            """
        #expect(String(decoding: JSONWriter.pretty(value), as: UTF8.self) == expected)
    }

    @Test("strings are escaped minimally and read back the same")
    func escaping() throws {
        let text = "quote \" backslash \\ newline \n tab \t bell \u{7} esc \u{1B} é 😀 \u{2028}"
        let written = String(decoding: JSONWriter.compact(.string(text)), as: UTF8.self)
        #expect(written.contains("\\\""))
        #expect(written.contains("\\u0007"))
        #expect(written.contains("\\u001b"))
        #expect(written.contains("é 😀"))
        #expect(!written.unicodeScalars.contains { $0.value < 0x20 })
        #expect(try JSONValue(parsing: written) == .string(text))
    }

    @Test("NDJSON output escapes C1 controls and Unicode line breaks too")
    func strictEscaping() throws {
        let text = "a\u{2028}b\u{2029}c\u{9B}d\u{7F}"
        let written = String(decoding: JSONWriter.compact(.string(text), escapingUnicodeLineBreaks: true), as: UTF8.self)
        #expect(written == "\"a\\u2028b\\u2029c\\u009bd\\u007f\"")
        #expect(try JSONValue(parsing: written) == .string(text))
    }

    @Test("write then read gives the same value")
    func roundTrip() throws {
        let value: JSONValue = [
            "nested": ["deeper": ["list": [1, 2.5, "x", nil, false, [:], []]]],
            "unicode": "日本語 \u{0} \u{1F}", "n": .number(JSONNumber(text: "-1.0e-7")!),
        ]
        #expect(try JSONReader().read(JSONWriter.pretty(value)) == value)
        #expect(try JSONReader().read(JSONWriter.compact(value)) == value)
    }
}
