import Foundation
import Testing

@testable import JSONStoreEtcd

/// HPACK as RFC 7541 has it: the public corpus of eight encoders' header blocks decoded,
/// the RFC's own examples, and a hostile server's blocks refused.
@Suite("HPACK: HTTP/2's header compression")
struct HPACKTests {
    /// One encoder's story: header blocks sent on one connection, in order.
    struct Story {
        var path: String
        var cases: [(tableSize: Int?, wire: [UInt8], headers: [HPACK.Field])]
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("HPACKTestCase")

    func stories() throws -> [Story] {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.corpus.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        return try files.map { file in
            let data = try Data(contentsOf: Self.corpus.appendingPathComponent(file))
            let object = try #require(
                try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let cases = try #require(object["cases"] as? [[String: Any]])
            return Story(
                path: file,
                cases: try cases.map { item in
                    let headers = try #require(item["headers"] as? [[String: String]])
                    return (
                        item["header_table_size"] as? Int,
                        Hex.bytes(try #require(item["wire"] as? String)),
                        headers.flatMap { $0.map { HPACK.Field($0.key, $0.value) } }
                    )
                })
        }
    }

    @Test("every block of eight encoders' stories decodes to its headers")
    func corpusDecodes() throws {
        let stories = try stories()
        #expect(stories.count >= 30)
        var blocks = 0
        var sawEviction = false
        for story in stories {
            var decoder = HPACKDecoder()
            for (n, item) in story.cases.enumerated() {
                if let size = item.tableSize { decoder.maxTableSize = size }
                let decoded = try decoder.decode(item.wire)
                #expect(decoded == item.headers, "\(story.path) case \(n)")
                blocks += 1
                if decoder.tableCapacity < 4096 { sawEviction = true }
            }
        }
        #expect(blocks > 150)
        #expect(sawEviction, "the corpus changes the table's size")
    }

    @Test("every header list encoded and decoded again is itself")
    func corpusRoundTrips() throws {
        for story in try stories() {
            for item in story.cases {
                var decoder = HPACKDecoder()
                let encoded = HPACKEncoder.encode(item.headers)
                #expect(try decoder.decode(encoded) == item.headers, "\(story.path)")
            }
        }
    }

    @Test("the RFC's examples: Huffman-coded requests sharing a dynamic table (C.4)")
    func rfcExamples() throws {
        var decoder = HPACKDecoder()
        let first = try decoder.decode(Hex.bytes("828684418cf1e3c2e5f23a6ba0ab90f4ff"))
        #expect(
            first == [
                .init(":method", "GET"), .init(":scheme", "http"), .init(":path", "/"),
                .init(":authority", "www.example.com"),
            ])
        // The second names the first's :authority by its place in the dynamic table (62).
        let second = try decoder.decode(Hex.bytes("828684be5886a8eb10649cbf"))
        #expect(second.last == .init("cache-control", "no-cache"))
        #expect(second[3] == .init(":authority", "www.example.com"))
        #expect(
            HPACKHuffman.encode(Array("www.example.com".utf8))
                == Hex.bytes("f1e3c2e5f23a6ba0ab90f4ff"))
        #expect(HPACKHuffman.encode(Array("no-cache".utf8)) == Hex.bytes("a8eb10649cbf"))
    }

    @Test("Huffman: any bytes come back; end-of-string or bad padding is refused")
    func huffman() {
        var g = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...64, using: &g)).map { _ in
                UInt8.random(in: 0...255, using: &g)
            }
            #expect(HPACKHuffman.decode(HPACKHuffman.encode(text)) == text)
            #expect(HPACKHuffman.encode(text).count == HPACKHuffman.encodedCount(text))
        }
        // "a" is 00011 (5 bits): padded with ones, 0x1F; with a zero in its padding, or a
        // whole byte of padding, it is not a string this code makes.
        #expect(HPACKHuffman.decode([0x1F]) == Array("a".utf8))
        #expect(HPACKHuffman.decode([0x1E]) == nil)
        #expect(HPACKHuffman.decode([0x1F, 0xFF]) == nil)
        // End-of-string's code, thirty ones, is never a symbol of a string.
        #expect(HPACKHuffman.decode([0xFF, 0xFF, 0xFF, 0xFF]) == nil)
    }

    func refusal(_ hex: String, maxTableSize: Int = 4096, maxListSize: Int = 1 << 20) -> String? {
        var decoder = HPACKDecoder(maxTableSize: maxTableSize, maxListSize: maxListSize)
        do {
            _ = try decoder.decode(Hex.bytes(hex))
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("a hostile server's blocks are refused with the reason")
    func refused() {
        #expect(refusal("80") == "a field indexed 0, which the tables do not have")
        #expect(refusal("be") == "a field indexed 62, which the tables do not have")
        #expect(refusal("ff") == "an integer cut short")
        #expect(refusal("ff80808080808001") == "an integer past 2^31")
        #expect(refusal("7fffffffff0f") == "an integer past 2^31")
        #expect(refusal("400a") == "a string of 10 bytes past the block's end")
        #expect(refusal("40") == "a string cut short")
        #expect(
            refusal("3fe21f", maxTableSize: 4096) == "a table size of 4097, past the 4096 allowed")
        #expect(refusal("8220") == "a table size update after a field")
        #expect(refusal("4081ff0161") == "a Huffman-coded string that does not decode")
        // A list past its limit: two fields of 32 + 1 + 1 bytes each against 40.
        #expect(
            refusal("40016101614001620162", maxListSize: 40) == "a header list larger than 40 bytes"
        )
    }

    @Test("the dynamic table keeps the newest within its size, and a size update evicts")
    func dynamicTable() throws {
        var decoder = HPACKDecoder(maxTableSize: 100)
        // Three fields of 34 bytes each (one-byte name and value, and 32) in a table of
        // 100: the first is evicted by the third.
        let added = try decoder.decode(Hex.bytes("400161016140016201624001630163"))
        #expect(added == [.init("a", "a"), .init("b", "b"), .init("c", "c")])
        // Index 62 is the newest (c), 63 the one before (b); a is gone.
        #expect(try decoder.decode(Hex.bytes("bebf")) == [.init("c", "c"), .init("b", "b")])
        #expect(throws: HPACK.Error.self) { try decoder.decode(Hex.bytes("c0")) }
        // A size update to 40 keeps only c; to 0, nothing.
        #expect(try decoder.decode(Hex.bytes("3f09be")) == [.init("c", "c")])
        #expect(throws: HPACK.Error.self) { try decoder.decode(Hex.bytes("3f09bf")) }
        #expect(throws: HPACK.Error.self) { try decoder.decode(Hex.bytes("20be")) }
    }

    @Test("what this client sends: a token never indexed, known names by their index")
    func encoder() throws {
        let fields: [HPACK.Field] = [
            .init(":method", "POST"), .init(":path", "/etcdserverpb.KV/Range"),
            .init("content-type", "application/grpc"), .init("te", "trailers"),
            .init("token", "secret"),
        ]
        let block = HPACKEncoder.encode(fields)
        #expect(block.first == 0x83)  // :method POST, static index 3
        var decoder = HPACKDecoder()
        #expect(try decoder.decode(block) == fields)
        // The token's field is "never indexed" (0001 0000, its name a literal).
        let token = HPACKEncoder.encode([.init("token", "secret")])
        #expect(token.first == 0x10)
        // Nothing went into the decoder's table: every field was sent not indexed.
        #expect(throws: HPACK.Error.self) { try decoder.decode([0xBE]) }
    }
}
