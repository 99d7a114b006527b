import TestSupport
import Testing

@testable import JSONStore

/// `forEachChunk`: the store's items in id order, a bounded chunk at a time, with the
/// invalid files at the end: what a one-shot `list` writes as it reads.
@Suite("Reading a store a chunk at a time")
struct ChunkedReadingTests {
    @Test("chunks of at most the size asked, in id order, together the whole store")
    func chunks() throws {
        let temp = try TemporaryStore()
        for i in (0..<1_000).shuffled() {
            try temp.writeFile(String(format: "n%04d.json", i), "{\"n\": \(i)}")
        }
        try temp.writeFile("bad.json", "{")
        try temp.writeFile("bad name\u{1}.json", "{}")
        var sizes: [Int] = []
        var ids: [String] = []
        let invalid = try temp.store.forEachChunk(of: 64) { items in
            sizes.append(items.count)
            ids += items.map(\.id)
        }
        let whole = try temp.store.load()
        #expect(ids == whole.items.map(\.id))
        #expect(ids == ids.sorted { UTF8Key.less($0, $1) })
        #expect(sizes.allSatisfy { $0 <= 64 } && sizes.count == 16)
        #expect(invalid.map(\.name) == whole.invalid.map(\.name))
        #expect(invalid.map(\.name) == ["bad name\u{1}.json", "bad.json"])
    }

    @Test("what the body throws ends the read")
    func bodyThrows() throws {
        struct Stop: Error {}
        let temp = try TemporaryStore()
        for i in 0..<300 { try temp.writeFile("n\(i).json", "{}") }
        var calls = 0
        #expect(throws: Stop.self) {
            try temp.store.forEachChunk(of: 100) { _ in
                calls += 1
                throw Stop()
            }
        }
        #expect(calls == 1)
    }
}
