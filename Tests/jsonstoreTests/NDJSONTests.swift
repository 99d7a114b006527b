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
        // Built whole, from JSON values, as a reader of the stream would see it.
        let event: JSONValue = .object([
            "event": "initial", "revision": .string(results.revision.token),
            "version": .number(JSONNumber(results.version)),
            "items": NDJSON.items(results), "invalid": NDJSON.invalid(results.invalid),
            "conflicts": NDJSON.conflicts(results.conflicts),
        ])
        let whole = JSONWriter.compact(event, escapingUnicodeLineBreaks: true) + [0x0A]
        #expect(Array(pieces.joined()) == whole)
        #expect(NDJSON.event(.initial(results)) == String(decoding: whole, as: UTF8.self))
        #expect(whole.filter { $0 == 0x0A }.count == 1)
    }

    @Test("the initial event of many items, written in runs on every core, is the same bytes")
    func initialInRuns() throws {
        // Ten runs of 4,096 and a short one: three batches of runs at once, each written
        // while the next is made; text that must be escaped beside text copied as it is.
        let (results, _) = makeResults(41_000) {
            $0 % 3 == 0 ? "Task \($0) \u{2028} \"quoted\"" : "Task \($0) — plain"
        }
        func written(parallelAbove threshold: Int) -> [UInt8] {
            var pieces: [[UInt8]] = []
            var out = OutputBuffer { pieces.append($0) }
            NDJSON.writeInitial(results, to: &out, parallelAbove: threshold)
            out.flush()
            return Array(pieces.joined())
        }
        let inRuns = written(parallelAbove: 0)
        #expect(inRuns == written(parallelAbove: .max))
        let event = try JSONReader().read(inRuns)
        let items = try #require(event.objectValue?["items"]?.arrayValue)
        #expect(items.count == 41_000)
        #expect(items.last?.objectValue?["id"] == "item-040999")
    }

    @Test("list's JSON and NDJSON written in pieces are the items' objects, byte for byte")
    func listFormats() {
        let fingerprint = Fingerprint([UInt8]())
        var items = [
            Item(
                id: "a", object: ["title": "x\u{2028}\u{9B}", "tags": ["t", 1]],
                fingerprint: fingerprint),
            Item(id: "b", object: ["id": "b", "n": 2], fingerprint: fingerprint),
            Item(id: "c", object: [:], fingerprint: fingerprint),
        ]
        // Past `ListingWriter.parallelAbove`: NDJSON written in runs on every core, the
        // last run short.
        for i in 0..<5000 {
            items.append(
                Item(
                    id: "d\(i)", object: ["text": .string("\u{1B}[2J \(i)")],
                    fingerprint: fingerprint))
        }
        func written(_ format: ListFormat, _ items: [Item]) -> [UInt8] {
            var bytes: [UInt8] = []
            var out = OutputBuffer { bytes += $0 }
            format.write(items, columns: ["id"], headers: true, width: 80, to: &out)
            out.flush()
            return bytes
        }
        let objects = items.map { JSONValue.object($0.object) }
        #expect(
            written(.json, items)
                == JSONWriter.pretty(.array(objects), escapingUnicodeLineBreaks: true))
        #expect(
            written(.json, []) == JSONWriter.pretty(.array([]), escapingUnicodeLineBreaks: true))
        #expect(
            written(.ndjson, items)
                == Array(
                    objects.map { JSONWriter.compact($0, escapingUnicodeLineBreaks: true) + [0x0A] }
                        .joined()))
    }
}
