extension StartCache {
    /// A cache's entries as its file holds them: the fixed-size records and the names read
    /// into one buffer, the items' bytes into one chunk; each field read when asked.
    ///
    /// A start walks them by position (`compare`, `signature(at:)`) without making an id or
    /// an entry; the items it takes share the chunk (`itemBytes(at:)`), not a copy.
    struct Entries: RandomAccessCollection, Sendable {
        /// The records, then the names, as read (`Layout`).
        private let metadata: [UInt8]
        private let names: Int
        /// The items' bytes.
        nonisolated(unsafe) private let bytes: ByteChunk
        let count: Int

        /// The entries of a cache's `metadata`, its records and then, at `names`, its names,
        /// checked by the reader.
        init(metadata: [UInt8], names: Int, count: Int, bytes: ByteChunk) {
            self.metadata = metadata
            self.names = names
            self.count = count
            self.bytes = bytes
        }

        var startIndex: Int { 0 }
        var endIndex: Int { count }

        subscript(k: Int) -> Entry {
            Entry(
                id: id(at: k), signature: signature(at: k), fingerprint: fingerprint(at: k),
                bytes: itemBytes(at: k), head: head(at: k))
        }

        /// The field at `offset` in the record of entry `k`.
        @inline(__always)
        private func field<T: FixedWidthInteger>(_ k: Int, _ offset: Int, as: T.Type = T.self)
            -> T
        {
            metadata.withUnsafeBytes { $0.little(k * Layout.record + offset) }
        }

        /// Calls `body` with the bytes of entry `k`'s id.
        func withName<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            let start = names + Int(field(k, Layout.nameOffset, as: UInt32.self))
            let count = Int(field(k, Layout.nameCount, as: UInt32.self))
            return metadata.withUnsafeBufferPointer {
                body(UnsafeBufferPointer(rebasing: $0[start..<start + count]))
            }
        }

        func id(at k: Int) -> String {
            withName(k) { String(decoding: $0, as: UTF8.self) }
        }

        /// Compares entry `k`'s id with `id` by their bytes, as `UTF8Key.compare` does.
        func compare(_ k: Int, _ id: String) -> Int {
            withName(k) { name in UTF8Key.withBytes(id) { UTF8Key.compare(name, $0) } }
        }

        func signature(at k: Int) -> FileSignature { withRecord(k, Layout.signature) }

        func fingerprint(at k: Int) -> Fingerprint { withRecord(k, Layout.fingerprint) }

        /// The bytes of entry `k`'s item, a range of the cache's chunk.
        func itemBytes(at k: Int) -> ItemBytes {
            ItemBytes(
                chunk: bytes, offset: field(k, Layout.bytesOffset),
                count: field(k, Layout.bytesCount))
        }

        func head(at k: Int) -> Head { withRecord(k, Layout.head) }

        /// Entry `k`'s item, of the id `id`, its bytes the cache's.
        func item(at k: Int, id: String) -> Item {
            Item(id: id, bytes: itemBytes(at: k), fingerprint: fingerprint(at: k))
        }

        private func withRecord<R>(_ k: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
            metadata.withUnsafeBytes { raw in
                let start = k * Layout.record
                return body(UnsafeRawBufferPointer(rebasing: raw[start..<start + Layout.record]))
            }
        }

        /// The position of the entry of `id`, found by its bytes.
        func position(of id: String) -> Int? {
            let low = Bisection.first(of: count) { compare($0, id) >= 0 }
            return low < count && compare(low, id) == 0 ? low : nil
        }
    }
}
