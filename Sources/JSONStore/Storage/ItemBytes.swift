import Glibc

/// An item's bytes as its file has them: what the store keeps of an item, its members made
/// from them on access.
///
/// The bytes are a range of a `ByteChunk`, shared by every copy of the item and every
/// version of the store that holds it; a chunk holds one item's bytes or, for a load,
/// many items' (`ByteChunk.Packer`), so an item costs its bytes and these 16 bytes, not a
/// heap object of its own. The bytes are valid JSON, an object, by construction: they
/// were read by the store's reader or written by `JSONWriter`.
struct ItemBytes: Sendable, Equatable {
    // Never written after it is filled (`ByteChunk`). Read elsewhere only to count it
    // (`MemoryUsage`).
    nonisolated(unsafe) let chunk: ByteChunk
    let offset: UInt32
    /// The number of bytes.
    let count: UInt32

    /// A copy of `bytes` in a chunk of their own.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.init(chunk: ByteChunk.holding(bytes), offset: 0, count: UInt32(bytes.count))
    }

    /// A copy of `bytes` in a chunk of their own.
    init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { ItemBytes($0) }
    }

    /// The bytes at `offset` in `chunk`.
    init(chunk: ByteChunk, offset: UInt32, count: UInt32) {
        self.chunk = chunk
        self.offset = offset
        self.count = count
    }

    /// Calls `body` with the bytes, valid only during the call.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try chunk.withUnsafeBytes { whole in
            try body(UnsafeRawBufferPointer(rebasing: whole[Int(offset)..<Int(offset + count)]))
        }
    }

    /// The bytes where they are, with no count taken on their chunk: valid only while
    /// something else holds it (the tree whose entries a walk hands on, `forEachText`).
    var unsafeText: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: chunk.baseAddress + Int(offset), count: Int(count))
    }

    /// The bytes as an array.
    var array: [UInt8] { withUnsafeBytes { Array($0) } }

    static func == (a: ItemBytes, b: ItemBytes) -> Bool { same(a, b) }

    /// Whether `a` and `b` are the same bytes.
    static func same(_ a: ItemBytes, _ b: ItemBytes) -> Bool {
        guard a.count == b.count else { return false }
        if a.chunk === b.chunk && a.offset == b.offset { return true }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
            }
        }
    }

    /// The reader that reads the bytes again: no limits, since they passed the store's.
    static let reader = JSONReader(maxDepth: .max, maxSize: .max)

    /// The members, made afresh (or once within `ParsedMembers.keeping`).
    var object: JSONObject {
        guard let memo = ParsedMembers.current else { return parsed() }
        return memo.object(of: self, parsed)
    }

    /// The members, made from the bytes.
    private func parsed() -> JSONObject {
        let value = withUnsafeBytes { raw in
            try? Self.reader.read(raw.assumingMemoryBound(to: UInt8.self))
        }
        assert(value?.objectValue != nil, "an item's bytes hold an object")
        return value?.objectValue ?? JSONObject()
    }

    /// Whether `other` holds the same members (as `object == other.object` decides: a text
    /// written anew with other whitespace or escapes), read off both texts' tapes without
    /// making their members.
    func sameMembers(as other: ItemBytes) -> Bool {
        withUnsafeBytes { mine in
            other.withUnsafeBytes { theirs in
                let a = mine.assumingMemoryBound(to: UInt8.self)
                let b = theirs.assumingMemoryBound(to: UInt8.self)
                guard let tapeA = try? Self.reader.tape(a), let tapeB = try? Self.reader.tape(b)
                else { return object == other.object }
                return tapeA.sameValue(in: a, as: tapeB, in: b)
            }
        }
    }

    /// The value of the member `key`, read without making the others.
    func member(_ key: String) -> JSONValue? {
        withUnsafeBytes { raw in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            guard let range = MemberScan.valueRange(of: key, in: bytes) else { return nil }
            return try? Self.reader.read(UnsafeBufferPointer(rebasing: bytes[range]))
        }
    }

    /// Whether the object has a member `key`.
    func hasMember(_ key: String) -> Bool {
        withUnsafeBytes { raw in
            MemberScan.valueRange(of: key, in: raw.assumingMemoryBound(to: UInt8.self)) != nil
        }
    }
}
