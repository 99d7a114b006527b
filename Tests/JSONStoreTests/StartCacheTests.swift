import Testing

@testable import JSONStore

/// The start cache's file: read back as written, and refused, never trusted and never a
/// crash, when it is anything else.
@Suite("The start cache's file")
struct StartCacheTests {
    let here = StartCache.Directory(device: 2049, inode: 1_234_567)

    var header: StartCache.Header {
        StartCache.Header(
            directory: here, lookedAt: 1_764_000_001_000_000_000,
            stamp: JournalStamp(revision: 41, journalID: "9f3a0c1d2e3f4a5b6c7d"))
    }

    func entries(_ count: Int) -> [StartCache.Entry] {
        (0..<count).map { k in
            let bytes = Array(#"{"title": "item \#(k)", "é": [1, 2.5e3]}"#.utf8)
            return StartCache.Entry(
                id: "item-\(k)",
                signature: FileSignature(
                    device: 2049, inode: UInt64(100 + k), size: Int64(bytes.count),
                    modified: 1_764_000_000_123_456_789 + Int64(k), changed: -Int64(k)),
                fingerprint: Fingerprint(bytes), bytes: ItemBytes(bytes))
        }.sorted { UTF8Key.less($0.id, $1.id) }
    }

    func decoded(_ bytes: [UInt8]) throws -> StartCache {
        try StartCache(decoding: bytes, for: here)
    }

    @Test("a cache reads back as it was written, with and without a journal stamp")
    func roundTrip() throws {
        var written = entries(50)
        var cache = try decoded(StartCache.encoded(header, written))
        #expect(cache.header == header && Array(cache.entries) == written)
        var full = header
        full.position = Journal.Position(segment: .init(first: 1_000_001), offset: 8_123)
        full.terms = Fingerprint(Array("{}".utf8))
        full.headsComplete = true
        written[1].head = .none
        written[2].head = .head(
            JournalHeads.Head(
                revision: 1_234, kind: .modified, fingerprint: Fingerprint([1, 2]),
                sinceKeyframe: 7, wholeAt: 1_200))
        written[3].head = .head(
            JournalHeads.Head(
                revision: 99, kind: .deleted, fingerprint: nil, sinceKeyframe: 0, wholeAt: 99))
        // An entry to read again: no bytes.
        written[4].bytes = ItemBytes([UInt8]())
        written[4].fingerprint = Fingerprint([UInt8]())
        written[4].signature = .unknown
        cache = try decoded(StartCache.encoded(full, written))
        #expect(cache.header == full && Array(cache.entries) == written)
        #expect(cache.entry("item-7")?.signature.inode == 107)
        #expect(cache.entry("item-7x") == nil && cache.entry("") == nil)
        var bare = header
        bare.stamp = nil
        let empty = try decoded(StartCache.encoded(bare, []))
        #expect(empty.header == bare && empty.entries.isEmpty)
    }

    @Test("a cursor reads forward what the entries hold, across blocks, and refuses damage")
    func cursor() throws {
        // Enough entries for the records to span blocks (`Layout.block`).
        var written = entries(12_000)
        written[3].head = .head(
            JournalHeads.Head(
                revision: 5, kind: .created, fingerprint: Fingerprint([1]), sinceKeyframe: 0,
                wholeAt: 5))
        let bytes = try StartCache.encoded(header, written)
        let cache = try decoded(bytes)
        let cursor = try StartCache.Cursor(.memory(bytes), for: here, terms: nil)
        #expect(cursor.header == header && cursor.count == written.count)
        for k in stride(from: 0, to: written.count, by: 7) {
            #expect(cursor.compare(k, written[k].id) == 0)
            #expect(cursor.compare(k, written[k].id + "~") < 0)
            #expect(cursor.id(at: k) == written[k].id)
            #expect(cursor.signature(at: k) == cache.entries[k].signature)
            #expect(cursor.fingerprint(at: k) == written[k].fingerprint)
            #expect(cursor.head(at: k) == written[k].head)
        }
        // The header, records, names, trailer: each checked. (The items' bytes it never reads:
        // a writer carries the snapshot's.)
        let names = try #require(
            bytes.indices.first { bytes[$0...].starts(with: Array(written[0].id.utf8)) })
        for offset in [20, bytes.count / 3, bytes.count / 2, names + 3, bytes.count - 10] {
            var changed = bytes
            changed[offset] ^= 0x5A
            #expect(throws: StartCache.Refusal.self, "byte \(offset)") {
                try StartCache.Cursor(.memory(changed), for: here, terms: nil)
            }
        }
    }

    @Test(
        "another directory's cache, another format's, or other terms are refused for what they are")
    func otherDirectoryFormatOrTerms() throws {
        let bytes = try StartCache.encoded(header, entries(3))
        #expect(throws: StartCache.Refusal.otherDirectory) {
            try StartCache(decoding: bytes, for: .init(device: 2049, inode: 7))
        }
        var other = bytes
        other[StartCache.magic.count] = 9
        #expect(throws: StartCache.Refusal.otherFormat(9)) { try decoded(other) }
        #expect(throws: StartCache.Refusal.otherTerms) {
            try StartCache(reading: .memory(bytes), for: here, terms: Fingerprint([1]))
        }
    }

    @Test("every cut and every changed byte is refused as damage")
    func damage() throws {
        let bytes = try StartCache.encoded(header, entries(4))
        for length in 0..<bytes.count {
            #expect(throws: StartCache.Refusal.self) { try decoded(Array(bytes.prefix(length))) }
        }
        for offset in bytes.indices {
            var changed = bytes
            changed[offset] ^= 0x5A
            #expect(throws: StartCache.Refusal.self, "byte \(offset)") { try decoded(changed) }
        }
    }

    @Test("an encoder given entries out of order, or other than it counted, writes nothing")
    func encoderRefuses() throws {
        let two = entries(2)
        #expect(throws: Errno.invalidArgument) {
            try StartCache.encoded(header, [two[1], two[0]])
        }
        #expect(throws: Errno.invalidArgument) { try StartCache.encoded(header, [two[0], two[0]]) }
        var encoder = StartCache.Encoder(
            header: header, count: 2, namesCount: 12, into: StartCache.MemorySink())
        try encoder.append(two[0])
        #expect(throws: Errno.invalidArgument) { try encoder.finish() }
    }
}
