import TestSupport
import Testing

@testable import JSONStore

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
        let written = String(
            decoding: JSONWriter.compact(.string(text), escapingUnicodeLineBreaks: true),
            as: UTF8.self)
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

    @Test("every character next to an escaped range is escaped or copied as it should be")
    func escapingBoundaries() throws {
        // Scalars on both sides of each escaped range, and ones sharing their lead bytes.
        let palette: [UInt32] = [
            0x00, 0x08, 0x0C, 0x1F, 0x20, 0x22, 0x5C, 0x7E, 0x7F, 0x80, 0x9B, 0x9F, 0xA0, 0xBF,
            0xC2, 0xE9, 0x100, 0x2027, 0x2028, 0x2029, 0x202A, 0x20AC, 0x1F600, 0x061B,
            0x061C, 0x061D, 0x200D, 0x200E, 0x200F, 0x2010, 0x202E, 0x202F, 0x2065, 0x2066,
            0x2069, 0x206A, 0x2040,
        ]
        var random = SeededRandom(seed: 7)
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                text.unicodeScalars.append(Unicode.Scalar(palette.randomElement(using: &random)!)!)
            }
            for strict in [false, true] {
                let written = JSONWriter.compact(.string(text), escapingUnicodeLineBreaks: strict)
                #expect(try JSONReader().read(written) == .string(text), "\(Array(text.utf8))")
                let escaped: (Unicode.Scalar) -> Bool = {
                    $0.value < 0x20 || strict && Display.isUnsafe($0)
                }
                let output = String(decoding: written, as: UTF8.self)
                #expect(!output.unicodeScalars.contains(where: escaped), "\(output)")
                let kept = text.unicodeScalars.filter { !escaped($0) && $0 != "\"" && $0 != "\\" }
                #expect(kept.allSatisfy { output.unicodeScalars.contains($0) })
            }
        }
    }

    @Test("an item is written as its object would be, the id first when the file has none")
    func items() {
        let fingerprint = Fingerprint([UInt8]())
        let withoutID = Item(
            id: "a\u{2028}", object: ["title": "x", "n": [1, 2]], fingerprint: fingerprint)
        let withID = Item(id: "b", object: ["title": "y", "id": "b"], fingerprint: fingerprint)
        let empty = Item(id: "c", object: [:], fingerprint: fingerprint)
        for item in [withoutID, withID, empty] {
            for strict in [false, true] {
                var compact: [UInt8] = []
                JSONWriter.appendItem(item, to: &compact, escapingUnicodeLineBreaks: strict)
                #expect(
                    compact
                        == JSONWriter.compact(
                            .object(item.object), escapingUnicodeLineBreaks: strict))
                var pretty: [UInt8] = []
                JSONWriter.appendItem(
                    item, to: &pretty, pretty: true, escapingUnicodeLineBreaks: strict)
                #expect(
                    pretty + [0x0A]
                        == JSONWriter.pretty(
                            .object(item.object), escapingUnicodeLineBreaks: strict))
            }
        }
    }
}
