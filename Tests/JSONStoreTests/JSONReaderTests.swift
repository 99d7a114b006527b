import JSONStore
import TestSupport
import Testing

@Suite("JSON reader")
struct JSONReaderTests {
    @Test("member order survives a read and a pretty write")
    func memberOrderRoundTrip() throws {
        let text = """
            {
              "zeta": 1,
              "alpha": {
                "y": [],
                "b": {},
                "a": [
                  1.50,
                  -0,
                  1e+30,
                  123456789012345678901234567890
                ]
              },
              "mid": "ünïcødé \\" \\\\ \\n",
              "n": null,
              "t": true,
              "f": false
            }

            """
        let value = try JSONValue(parsing: text)
        #expect(value.objectValue?.keys == ["zeta", "alpha", "mid", "n", "t", "f"])
        #expect(value["alpha"]?.objectValue?.keys == ["y", "b", "a"])
        #expect(String(decoding: JSONWriter.pretty(value), as: UTF8.self) == text)
    }

    @Test("valid inputs read to the expected values")
    func validInputs() throws {
        #expect(try JSONValue(parsing: " [ ] ") == .array([]))
        #expect(try JSONValue(parsing: "\u{FEFF}{\"a\":1}") == ["a": 1])  // BOM allowed
        #expect(try JSONValue(parsing: "\"\\u00e9\\ud83d\\ude00\\/\"") == .string("é😀/"))
        #expect(try JSONValue(parsing: "\"\\u0000\"") == .string("\u{0}"))
        #expect(try JSONValue(parsing: "-0.5e-3").doubleValue == -0.0005)
        #expect(try JSONValue(parsing: "12").intValue == 12)
        #expect(try JSONValue(parsing: "\"日本語\"") == .string("日本語"))
        let many = "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(try JSONValue(parsing: many).objectValue?.count == 40)
    }

    /// A malformed input, where the error must be, and what kind it must be.
    struct Malformed: CustomTestStringConvertible, Sendable {
        let input: [UInt8]
        let line: Int
        let column: Int
        let kind: JSONSyntaxError.Kind
        let reason: String

        init(
            _ input: String, _ line: Int, _ column: Int, _ kind: JSONSyntaxError.Kind,
            _ reason: String
        ) {
            self.input = Array(input.utf8)
            self.line = line
            self.column = column
            self.kind = kind
            self.reason = reason
        }

        init(
            bytes: [UInt8], _ line: Int, _ column: Int, _ kind: JSONSyntaxError.Kind,
            _ reason: String
        ) {
            self.input = bytes
            self.line = line
            self.column = column
            self.kind = kind
            self.reason = reason
        }

        var testDescription: String {
            String(decoding: input.prefix(40), as: UTF8.self).debugDescription
        }
    }

    static let malformed: [Malformed] = [
        Malformed("", 1, 1, .empty, "empty"),
        Malformed("  \n ", 2, 2, .empty, "empty"),
        Malformed("{", 1, 2, .unexpectedEndOfInput, "expected a string key"),
        Malformed("[1, 2", 1, 6, .unexpectedEndOfInput, "expected ',' or ']'"),
        Malformed("{\"a\": 1", 1, 8, .unexpectedEndOfInput, "expected ',' or '}'"),
        Malformed("{\"a\"", 1, 5, .unexpectedEndOfInput, "expected ':'"),
        Malformed("{\"a\":", 1, 6, .unexpectedEndOfInput, "expected a value"),
        Malformed("\"abc", 1, 1, .unexpectedEndOfInput, "unterminated string"),
        Malformed("{\"a\": 1,}", 1, 8, .trailingComma, "trailing comma before '}'"),
        Malformed("[1,\n 2,\n]", 2, 3, .trailingComma, "trailing comma before ']'"),
        Malformed(
            "{\"a\" 1}", 1, 6, .unexpectedCharacter, "expected ':' after an object key, found '1'"),
        Malformed("{\"a\": 1 \"b\": 2}", 1, 9, .unexpectedCharacter, "expected ',' or '}'"),
        Malformed("[1 2]", 1, 4, .unexpectedCharacter, "expected ',' or ']'"),
        Malformed("[,1]", 1, 2, .unexpectedCharacter, "expected a value, found ','"),
        Malformed("{,}", 1, 2, .unexpectedCharacter, "expected a string key, found ','"),
        Malformed("{1: 2}", 1, 2, .unexpectedCharacter, "expected a string key, found '1'"),
        Malformed("{a: 1}", 1, 2, .unquotedKey, "keys must be strings in double quotes"),
        Malformed("{'a': 1}", 1, 2, .singleQuotedString, "double quotes"),
        Malformed("['a']", 1, 2, .singleQuotedString, "double quotes"),
        Malformed("tru", 1, 1, .invalidLiteral, "expected 'true'"),
        Malformed("nul", 1, 1, .invalidLiteral, "expected 'null'"),
        Malformed("[True]", 1, 2, .unexpectedCharacter, "expected a value, found 'T'"),
        Malformed("falsey", 1, 6, .trailingData, "after the JSON value"),
        Malformed("NaN", 1, 1, .nonFiniteNumber, "NaN and Infinity"),
        Malformed("[Infinity]", 1, 2, .nonFiniteNumber, "NaN and Infinity"),
        Malformed("-Infinity", 1, 1, .nonFiniteNumber, "NaN and Infinity"),
        Malformed("01", 1, 1, .invalidNumber, "leading zeros"),
        Malformed("[-012]", 1, 2, .invalidNumber, "leading zeros"),
        Malformed("1.", 1, 3, .invalidNumber, "expected a digit, found end of input"),
        Malformed("[.5]", 1, 2, .unexpectedCharacter, "expected a value, found '.'"),
        Malformed("+1", 1, 1, .unexpectedCharacter, "expected a value, found '+'"),
        Malformed("1e", 1, 3, .invalidNumber, "expected a digit"),
        Malformed("[1e+]", 1, 5, .invalidNumber, "expected a digit, found ']'"),
        Malformed("-", 1, 2, .invalidNumber, "expected a digit"),
        Malformed("0x1F", 1, 2, .trailingData, "after the JSON value"),
        Malformed("\"a\nb\"", 1, 3, .unescapedControlCharacter, "line break"),
        Malformed("\"a\tb\"", 1, 3, .unescapedControlCharacter, "tab"),
        Malformed("\"\u{1}\"", 1, 2, .unescapedControlCharacter, "U+0001"),
        Malformed("\"\\x41\"", 1, 2, .invalidEscape, "invalid escape \\x"),
        Malformed("\"\\u12G4\"", 1, 2, .invalidEscape, "four hex digits"),
        Malformed("\"\\ud800\"", 1, 2, .loneSurrogate, "lone surrogate \\uD800"),
        Malformed("\"x\\udc00\"", 1, 3, .loneSurrogate, "low surrogate without a high"),
        Malformed("\"\\ud800\\u0041\"", 1, 2, .loneSurrogate, "not a low surrogate"),
        Malformed(bytes: [0x22, 0xFF, 0x22], 1, 2, .invalidUTF8, "byte 0xFF cannot start"),
        Malformed(bytes: [0x22, 0xC3, 0x28, 0x22], 1, 2, .invalidUTF8, "byte 0x28 after 0xC3"),
        // an encoded surrogate
        Malformed(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, 2, .invalidUTF8, "after 0xED"),
        Malformed(bytes: [0x22, 0xC0, 0xAF, 0x22], 1, 2, .invalidUTF8, "0xC0"),  // overlong
        Malformed(bytes: [0x22, 0xE2, 0x82], 1, 2, .invalidUTF8, "ends inside a character"),
        Malformed(bytes: [0x7B, 0x0A, 0xFE], 2, 1, .unexpectedCharacter, "byte 0xFE"),
        Malformed("// note\n{}", 1, 1, .comment, "comments are not allowed"),
        Malformed("{\"a\": 1 /* c */}", 1, 9, .unexpectedCharacter, "found '/'"),
        Malformed("{\"a\": 1, \"a\": 2}", 1, 10, .duplicateKey, "duplicate key \"a\""),
        Malformed("{} {}", 1, 4, .trailingData, "unexpected '{' after the JSON value"),
        Malformed("[] x", 1, 4, .trailingData, "after the JSON value"),
        Malformed(
            "{\"é\": 1, \"ü\": x}", 1, 15, .unexpectedCharacter, "expected a value, found 'x'"),
        Malformed("\u{A0}{}", 1, 1, .unexpectedCharacter, "U+A0"),
        Malformed("{\"a\":\u{1B}[2J}", 1, 6, .unexpectedCharacter, "U+001B"),
    ]

    @Test("a malformed input fails at the right place with the right reason", arguments: malformed)
    func malformedInput(_ example: Malformed) {
        #expect(throws: JSONSyntaxError.self) { try JSONReader().read(example.input) }
        do {
            _ = try JSONReader().read(example.input)
        } catch {
            #expect(error.kind == example.kind)
            #expect(error.line == example.line)
            #expect(error.column == example.column)
            #expect(error.reason.contains(example.reason), "reason was: \(error.reason)")
            #expect(!error.reason.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
    }

    @Test("the table of malformed inputs has at least 40 cases")
    func tableSize() {
        #expect(Self.malformed.count >= 40)
    }

    @Test("100,000 levels of nesting are an error, not a stack overflow")
    func deepNesting() {
        for open in ["[", "{\"a\":"] {
            let input = Array(String(repeating: open, count: 100_000).utf8)
            do {
                _ = try JSONReader().read(input)
                Issue.record("nesting of 100,000 was accepted")
            } catch {
                #expect(error.kind == .tooDeep)
                #expect(error.reason.contains("512"))
            }
        }
        // The limit is configurable and exact.
        let at = Array((String(repeating: "[", count: 10) + String(repeating: "]", count: 10)).utf8)
        #expect(throws: Never.self) { try JSONReader(maxDepth: 10).read(at) }
        #expect(throws: JSONSyntaxError.self) { try JSONReader(maxDepth: 9).read(at) }
    }

    @Test("input over the size limit is refused")
    func sizeLimit() {
        let input = Array("[\(String(repeating: "1,", count: 100))1]".utf8)
        do {
            _ = try JSONReader(maxSize: 50).read(input)
            Issue.record("input over the limit was accepted")
        } catch {
            #expect(error.kind == .tooLarge)
        }
    }

    @Test("many members: duplicate keys are still found")
    func duplicateInLargeObject() {
        let members = (0..<1000).map { "\"k\($0)\":0" } + ["\"k500\":1"]
        let input = "{" + members.joined(separator: ",") + "}"
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: input) }
    }

    @Test("numbers keep their text; JSONNumber validates text")
    func numbers() throws {
        #expect(JSONNumber(text: "1.50")?.text == "1.50")
        #expect(JSONNumber(text: "01") == nil)
        #expect(JSONNumber(text: "1.") == nil)
        #expect(JSONNumber(text: "") == nil)
        #expect(JSONNumber(text: "NaN") == nil)
        #expect(JSONNumber(2.0).text == "2")
        #expect(JSONNumber(0.1).text == "0.1")
        #expect(JSONNumber(text: "3e2")?.intValue == 300)
        #expect(JSONNumber(text: "3.5")?.intValue == nil)
    }
}
