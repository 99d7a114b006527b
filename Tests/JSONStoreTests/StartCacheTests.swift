import Testing

@testable import JSONStore

/// The start cache's file: read back as written, and refused, never trusted and never a
/// crash, when it is anything else.
@Suite("The start cache's file")
struct StartCacheTests {
    let here = StartCache.Directory(device: 2049, inode: 1_234_567)

    func cache(_ count: Int) -> StartCache {
        let entries = (0..<count).map { k in
            let bytes = Array(#"{"title": "item \#(k)", "é": [1, 2.5e3]}"#.utf8)
            return StartCache.Entry(
                id: "item-\(k)",
                signature: FileSignature(
                    device: 2049, inode: UInt64(100 + k), size: Int64(bytes.count),
                    modified: 1_764_000_000_123_456_789 + Int64(k), changed: -Int64(k)),
                fingerprint: Fingerprint(bytes), bytes: ItemBytes(bytes))
        }
        return StartCache(
            directory: here, lookedAt: 1_764_000_001_000_000_000,
            stamp: JournalStamp(revision: 41, journalID: "9f3a0c1d2e3f4a5b6c7d"),
            entries: entries.sorted { UTF8Key.less($0.id, $1.id) })
    }

    @Test("a cache reads back as it was written, with and without a journal stamp")
    func roundTrip() throws {
        var written = cache(50)
        #expect(try StartCache(decoding: written.encoded(), for: here) == written)
        written.position = Journal.Position(segment: .init(first: 1_000_001), offset: 8_123)
        written.terms = Fingerprint(Array("{}".utf8))
        written.headsComplete = true
        written.entries[1].head = .none
        written.entries[2].head = .head(
            JournalHeads.Head(
                revision: 1_234, kind: .modified, fingerprint: Fingerprint([1, 2]),
                sinceKeyframe: 7, wholeAt: 1_200))
        written.entries[3].head = .head(
            JournalHeads.Head(
                revision: 99, kind: .deleted, fingerprint: nil, sinceKeyframe: 0, wholeAt: 99))
        #expect(try StartCache(decoding: written.encoded(), for: here) == written)
        var bare = cache(0)
        bare.stamp = nil
        #expect(try StartCache(decoding: bare.encoded(), for: here) == bare)
        #expect(written.entry("item-7")?.signature.inode == 107)
        #expect(written.entry("item-7x") == nil && written.entry("") == nil)
    }

    @Test("another directory's cache, or another format's, is refused for what it is")
    func otherDirectoryOrFormat() throws {
        let bytes = cache(3).encoded()
        #expect(throws: StartCache.Refusal.otherDirectory) {
            try StartCache(decoding: bytes, for: .init(device: 2049, inode: 7))
        }
        // The format field rewritten, the checksum made again: a well-formed cache of
        // another format.
        var other = Array(bytes.dropLast(8))
        other[StartCache.magic.count] = 9
        withUnsafeBytes(of: Fingerprint(other).hash.littleEndian) { other.append(contentsOf: $0) }
        #expect(throws: StartCache.Refusal.otherFormat(9)) {
            try StartCache(decoding: other, for: here)
        }
    }

    @Test("every cut and every changed byte is refused as damage")
    func damage() throws {
        let bytes = cache(4).encoded()
        for length in 0..<bytes.count {
            #expect(throws: StartCache.Refusal.self) {
                try StartCache(decoding: Array(bytes.prefix(length)), for: here)
            }
        }
        for offset in bytes.indices {
            var changed = bytes
            changed[offset] ^= 0x5A
            #expect(throws: StartCache.Refusal.self) {
                try StartCache(decoding: changed, for: here)
            }
        }
    }

    /// `body` sealed with its checksum, as a writer would: what decoding checks after the
    /// checksum is reached.
    func sealed(_ body: [UInt8]) -> [UInt8] {
        var bytes = body
        withUnsafeBytes(of: Fingerprint(body).hash.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// A cache's body (no checksum) with `count` entries written by hand after its header.
    func body(count: UInt64, entries: [UInt8]) -> [UInt8] {
        let header = cache(0).encoded().dropLast(16)  // up to the entry count
        return Array(header) + withUnsafeBytes(of: count.littleEndian, Array.init) + entries
    }

    func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian, Array.init)
    }

    /// One entry as the encoder writes it, its parts given.
    func entry(name: [UInt8], size: UInt64? = nil, bytes: [UInt8] = Array("{}".utf8)) -> [UInt8] {
        let fingerprint = Fingerprint(bytes)
        var out = le(UInt32(name.count)) + name
        for field in [UInt64(1), 2, 3, 4, 5] { out += le(field) }
        out += le(size ?? UInt64(fingerprint.size)) + le(fingerprint.hash)
        return out + le(UInt32(bytes.count)) + bytes + [0]  // its head: unknown
    }

    @Test("sealed but wrong inside: each refused as damage, with what is wrong")
    func sealedDamage() throws {
        let good = entry(name: Array("a.json".utf8))
        // The encoder's own entry, by hand: the fixture is right.
        #expect(throws: Never.self) {
            try StartCache(decoding: sealed(body(count: 1, entries: good)), for: here)
        }
        // What is wrong, the reason it is refused for, the body.
        let cases: [(String, String, [UInt8])] = [
            ("more entries than it holds", "counts more", body(count: UInt64.max, entries: good)),
            (
                "an id longer than the file", "cut short",
                body(count: 1, entries: le(UInt32(0x7FFF_FFFF)) + good.dropFirst(4))
            ),
            ("an item cut short", "cut short", body(count: 1, entries: Array(good.dropLast(1)))),
            (
                "an id that is not UTF-8", "not UTF-8",
                body(count: 1, entries: entry(name: [0x61, 0xFF]))
            ),
            (
                "bytes that are not the fingerprint's", "not the bytes",
                body(count: 1, entries: entry(name: [0x61], size: 3))
            ),
            ("bytes after the last entry", "follow", body(count: 1, entries: good + [0])),
            (
                "entries out of order", "not in order",
                body(count: 2, entries: entry(name: [0x62]) + entry(name: [0x61]))
            ),
            ("an entry twice", "not in order", body(count: 2, entries: good + good)),
            ("a head of no known tag", "tagged", body(count: 1, entries: good.dropLast() + [7])),
            (
                "a head of no known kind", "no kind",
                body(
                    count: 1,
                    entries: good.dropLast() + [2] + le(Int64(1)) + [9]
                        + Array(repeating: 0, count: 32))
            ),
        ]
        for (what, reason, body) in cases {
            do {
                _ = try StartCache(decoding: sealed(body), for: here)
                Issue.record("\(what): decoded")
            } catch {
                guard case .damaged(let why) = error else {
                    Issue.record("\(what): \(error)")
                    continue
                }
                #expect(why.contains(reason), "\(what): \(why)")
            }
        }
    }
}
