import Testing

@testable import JSONStore

extension JSONWriterTests {
    /// Texts the one-pass copy takes (no escape, nothing `strict` escapes) and texts it
    /// must give to `rewrite`, each as a person or a program would have laid it out.
    static let copied: [String] = [
        "{}", " \n{ }\n", "\u{FEFF}{\"a\": 1}",
        "{\n  \"title\": \"water the plants\",\n  \"n\": -1.5e3,\n  \"ok\": true,\n  \"x\": null\n}\n",
        "{\"tags\": [ \"a\" , \"b c\" ],\t\"deep\": {\"in\": [[], {}, [1, {\"k\": \"v\"}]]}}",
        "{\"id\": \"kept\", \"a\": \"  spaces  kept  \"}",
        "{\"jp\": \"日本語のテキスト\", \"é\": \"café\"}",
        "{\"a\": \"dash \u{2014}, ’quotes’ … \u{20AC}5, \u{A0}nbsp, \u{0627}\u{0644}\"}",
    ]
    static let refused: [String] = [
        "{\"a\": \"a \\\"quoted\\\" word\"}", "{\"a\": \"\\u0041\"}", "{\"a\\n\": 1}",
        "{\"a\": \"line\u{2028}break\"}", "{\"a\": \"del\u{7F}\"}", "{\"a\": \"c1\u{85}\"}",
        "{\"a\": \"mark\u{061C}\"}", "{\"a\": \"bidi \u{202E}\"}", "{\"a\": \"lrm\u{200E}\"}",
        "[1, 2]", "\"text\"",
    ]

    @Test("an object with no escape is copied in one pass, as the rewrite writes it")
    func compactCopy() throws {
        for (text, takes) in Self.copied.map({ ($0, true) }) + Self.refused.map({ ($0, false) }) {
            let bytes = Array(text.utf8)
            _ = try JSONReader().read(bytes)  // every text is valid JSON
            for strict in [false, true] {
                for id in [nil, "item \u{1}\u{2028}"] as [String?] {
                    var copied: [UInt8] = [0x2C]
                    var rewritten: [UInt8] = [0x2C]
                    let took = bytes.withUnsafeBufferPointer { bytes in
                        JSONWriter.rewrite(
                            bytes, id: id, into: &rewritten, indent: 0, pretty: false,
                            strict: strict)
                        return JSONWriter.appendCompactCopy(
                            bytes, id: id, into: &copied, strict: strict)
                    }
                    // Non-ASCII text that is not escaped is copied when not strict too.
                    let expected = takes || (!strict && !text.contains("\\") && text.hasPrefix("{"))
                    #expect(took == expected, "\(text) strict: \(strict)")
                    if took {
                        #expect(copied == rewritten, "\(text) strict: \(strict)")
                    } else {
                        #expect(copied == [0x2C], "a refused text leaves the output as it was")
                    }
                }
            }
        }
    }
}
