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
                name: "item-\(k).json",
                signature: FileSignature(
                    device: 2049, inode: UInt64(100 + k), size: Int64(bytes.count),
                    modified: 1_764_000_000_123_456_789 + Int64(k), changed: -Int64(k)),
                fingerprint: Fingerprint(bytes), bytes: bytes)
        }
        return StartCache(
            directory: here, lookedAt: 1_764_000_001_000_000_000,
            stamp: JournalStamp(revision: 41, journalID: "9f3a0c1d2e3f4a5b6c7d"), entries: entries)
    }

    @Test("a cache reads back as it was written, with and without a journal stamp")
    func roundTrip() throws {
        let written = cache(50)
        #expect(try StartCache(decoding: written.encoded(), for: here) == written)
        var bare = cache(0)
        bare.stamp = nil
        #expect(try StartCache(decoding: bare.encoded(), for: here) == bare)
        #expect(written.signatures["item-7.json"]?.inode == 107)
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

    @Test("lengths beyond the file, with a valid checksum, are refused without a crash")
    func hostileLengths() throws {
        // A count of entries and a name length far beyond the file, checksummed as if
        // written so: what a hostile or buggy writer leaves.
        let header = cache(0).encoded().dropLast(16)  // up to the entry count
        for tail in [
            [UInt8](repeating: 0xFF, count: 8),  // 2^64 - 1 entries
            [1, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F],  // one entry, a 2 GiB name
        ] {
            var bytes = Array(header) + tail
            withUnsafeBytes(of: Fingerprint(bytes).hash.littleEndian) {
                bytes.append(contentsOf: $0)
            }
            #expect(throws: StartCache.Refusal.self) { try StartCache(decoding: bytes, for: here) }
        }
    }
}
