import Testing

@testable import JSONStore
@testable import JSONStoreCommand

@Suite("The NDJSON stream")
struct NDJSONTests {
    @Test("the initial event written in pieces is the event built whole, byte for byte")
    func initialInPieces() {
        // Enough items for several 64 KiB pieces, with text that must be escaped.
        let (results, _) = makeResults(3000) { "Task \($0) \u{2028} \"quoted\" \u{1B}[2J" }
        var pieces: [[UInt8]] = []
        var out = OutputBuffer { pieces.append($0) }
        NDJSON.writeInitial(results, to: &out)
        out.flush()
        #expect(pieces.count > 1)
        #expect(pieces.dropLast().allSatisfy { $0.count >= 1 << 16 })
        let whole = NDJSON.event(.initial(results))
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == whole)
        #expect(whole.hasSuffix("}\n") && whole.filter { $0 == "\n" }.count == 1)
    }
}
