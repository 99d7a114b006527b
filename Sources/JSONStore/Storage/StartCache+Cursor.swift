extension StartCache {
    /// A cache's records and names read in order, a block at a time (`Layout.block`):
    /// what a writer walking its snapshot in the ids' order needs of the last cache, and a
    /// start walking its listing, without holding them. Its header, records and names are
    /// checked first, in one pass of the same kind; the items' bytes, which a writer never
    /// reads, only by the one who reads them (`withItemBytes`, then `itemsIntact`: the list
    /// view's first screen; or whole, `readItems`: a start, whose items share them).
    ///
    /// Entries are asked for by position, never one before the last asked. Used by one
    /// thread at a time.
    final class Cursor {
        let header: Header
        let count: Int
        /// The file, when the cursor opened it.
        private let fd: FileDescriptor?
        private var records: Window
        private var names: Window
        /// The items' bytes, read only by `withItemBytes`, and their checksum.
        private var items: Window
        /// The checksums of the records, names and items' bytes, and the items' length.
        private let sums: (records: UInt64, names: UInt64, items: UInt64)
        private let itemsCount: Int
        /// The items' bytes, once `readItems` has read them whole.
        private(set) var chunk: ByteChunk?
        /// Whether a read failed since the check (the file changed in place, an I/O
        /// error): what was answered then is a fallback, and a writer writes nothing.
        private(set) var failed = false

        /// The cache the store at `store` keeps for `directory`, written under `terms` when
        /// given, checked; `nil` when there is none or it is refused.
        static func open(store: String, directory: Directory, terms: Fingerprint?) -> Cursor? {
            guard let (fd, source) = openFile(store: store) else { return nil }
            guard let cursor = try? Cursor(source, for: directory, terms: terms, owning: fd)
            else {
                fd.close()
                return nil
            }
            return cursor
        }

        /// The cache `source` holds, checked, of `directory`, under `terms` when given;
        /// `owning` is closed with the cursor.
        init(
            _ source: Source, for directory: Directory, terms: Fingerprint?,
            owning fd: FileDescriptor? = nil
        ) throws(Refusal) {
            let sections = try Sections(source, for: directory, terms: terms)
            try Self.check(source, sections)
            self.fd = fd
            (header, count) = (sections.header, sections.count)
            records = Window(
                source, at: sections.records, count: sections.names - sections.records)
            names = Window(source, at: sections.names, count: sections.namesCount)
            items = Window(source, at: sections.bytes, count: sections.bytesCount)
            sums = (sections.sums[1], sections.sums[2], sections.sums[3])
            itemsCount = sections.bytesCount
        }

        deinit { fd?.close() }

        /// Goes back to the first entry, to walk the entries again (the file was checked
        /// when opened, and is held open: a cache written since replaces its name only).
        func rewind() {
            (records, names, items) = (records.rewound, names.rewound, items.rewound)
        }

        /// Checks every record, and the records' and names' checksums, in one pass.
        private static func check(_ source: Source, _ sections: Sections) throws(Refusal) {
            var records = Window(
                source, at: sections.records, count: sections.names - sections.records)
            var names = Window(source, at: sections.names, count: sections.namesCount)
            var check = RecordCheck(sections)
            for k in 0..<sections.count {
                let r = try records.bring(k * Layout.record, Layout.record)
                let wrong = try records.withBytes(r, Layout.record) {
                    (record) throws(Refusal) -> String? in
                    try check.next(record) { (range, body) throws(Refusal) in
                        let n = try names.bring(range.lowerBound, range.count)
                        return names.withBytes(n, range.count) {
                            body($0.assumingMemoryBound(to: UInt8.self))
                        }
                    }
                }
                if let wrong { throw .damaged(wrong) }
            }
            if let wrong = check.finish() { throw .damaged(wrong) }
            guard try records.sum() == sections.sums[1], try names.sum() == sections.sums[2]
            else { throw .damaged("its checksum does not match") }
        }

        /// Calls `body` with entry `k`'s record; a failed read gives `fallback`.
        private func withRecord<R>(_ k: Int, _ fallback: R, _ body: (UnsafeRawBufferPointer) -> R)
            -> R
        {
            guard let result = try? records.read(k * Layout.record, Layout.record, body) else {
                failed = true
                return fallback
            }
            return result
        }

        /// The range entry `k`'s record gives at its fields `offset` and `count` (its
        /// name's in the names, its item's in the items' bytes).
        private func span(_ k: Int, _ offset: Int, _ count: Int) -> Range<Int> {
            withRecord(k, 0..<0) { record in
                let start = Int(record.little(offset, as: UInt32.self))
                return start..<start + Int(record.little(count, as: UInt32.self))
            }
        }

        /// Calls `body` with entry `k`'s name's bytes; a failed read gives `fallback`.
        func withName<R>(_ k: Int, _ fallback: R, _ body: (UnsafeBufferPointer<UInt8>) -> R)
            -> R
        {
            withName(span(k, Layout.nameOffset, Layout.nameCount), fallback, body)
        }

        /// Calls `body` with the names' bytes in `range`; a failed read gives `fallback`.
        private func withName<R>(
            _ range: Range<Int>, _ fallback: R, _ body: (UnsafeBufferPointer<UInt8>) -> R
        ) -> R {
            let result = try? names.read(range.lowerBound, range.count) {
                body($0.assumingMemoryBound(to: UInt8.self))
            }
            guard let result else {
                failed = true
                return fallback
            }
            return result
        }

        /// Compares entry `k`'s id with `id` by their bytes, as `UTF8Key.compare` does.
        func compare(_ k: Int, _ id: String) -> Int {
            compare(names: span(k, Layout.nameOffset, Layout.nameCount), id)
        }

        /// Compares the name at `range` of the names with `id` (1 when it cannot be read).
        private func compare(names range: Range<Int>, _ id: String) -> Int {
            withName(range, 1) { name in UTF8Key.withBytes(id) { UTF8Key.compare(name, $0) } }
        }

        func id(at k: Int) -> String {
            withName(k, "") { String(decoding: $0, as: UTF8.self) }
        }

        func signature(at k: Int) -> FileSignature {
            withRecord(k, .unknown, Layout.signature)
        }

        func fingerprint(at k: Int) -> Fingerprint {
            withRecord(k, Fingerprint(size: -1, hash: 0), Layout.fingerprint)
        }

        func head(at k: Int) -> Head { withRecord(k, .unknown, Layout.head) }

        /// Calls `body` with entry `k`'s item bytes as they are in the file, not checked:
        /// `nil` when they cannot be read. Entries are asked for in order; `itemsIntact`
        /// then says whether what was read was what was written.
        func withItemBytes<R>(_ k: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
            let range = span(k, Layout.bytesOffset, Layout.bytesCount)
            guard let result = try? items.read(range.lowerBound, range.count, body) else {
                failed = true
                return nil
            }
            return result
        }

        /// Whether the items' bytes are the ones written: the rest of them read and their
        /// checksum compared.
        func itemsIntact() -> Bool { !failed && (try? items.sum()) == sums.items }

        /// Reads the items' bytes whole into one chunk (`chunk`), which the items a start
        /// takes share, and checks them: whether they are the ones written.
        func readItems() -> Bool {
            guard let (read, sum) = try? items.whole(), sum == sums.items else { return false }
            chunk = read
            return true
        }

        /// Entry `k`'s record compared with `id` by their bytes, as `UTF8Key.compare`
        /// does, read once: the order, and the record when they are the same.
        func record(at k: Int, comparedWith id: String) -> (order: Int, record: Record?) {
            guard let (record, name) = fields(k) else { return (1, nil) }
            let order = compare(names: name, id)
            return order == 0 ? (0, record) : (order, nil)
        }

        /// Entry `k`'s record; `nil` when it cannot be read.
        func record(at k: Int) -> Record? { fields(k)?.record }

        /// Entry `k`'s record and its name's range, read at once.
        private func fields(_ k: Int) -> (record: Record, name: Range<Int>)? {
            withRecord(k, nil) { r in
                let start = Int(r.little(Layout.nameOffset, as: UInt32.self))
                let record = Record(
                    signature: Layout.signature(r), fingerprint: Layout.fingerprint(r),
                    bytes: Int(r.little(Layout.bytesOffset, as: UInt32.self)),
                    head: Layout.head(r))
                return (record, start..<start + Int(r.little(Layout.nameCount, as: UInt32.self)))
            }
        }

        /// The entry of `record`, with `id` (the caller's copy of its name) and its bytes
        /// in `chunk`: `nil` when they are not there.
        func entry(_ record: Record, id: String) -> Entry? {
            guard let bytes = bytes(of: record) else { return nil }
            return Entry(
                id: id, signature: record.signature, fingerprint: record.fingerprint,
                bytes: bytes, head: record.head)
        }

        /// The item's bytes of `record`, in `chunk`: `nil` (and the walk failed) when they
        /// are not there.
        func bytes(of record: Record) -> ItemBytes? {
            let count = record.fingerprint.size
            guard let chunk, record.bytes + count <= itemsCount else {
                failed = true
                return nil
            }
            return ItemBytes(chunk: chunk, offset: UInt32(record.bytes), count: UInt32(count))
        }

        /// Whether every record and name walked was the one written and checked: the rest of
        /// them read and their checksums compared, once the walk is done. A cache changed
        /// in place since it was checked gives `false`, and what the walk took is not used.
        func walkedIntact() -> Bool {
            guard !failed, let records = try? records.sum(), let names = try? names.sum()
            else { return false }
            return records == sums.records && names == sums.names
        }
    }

    /// A section of a cache's file read forward a block at a time, each block checksummed
    /// as it is read (`SectionHash`).
    struct Window {
        private let source: Source
        private let start: Int
        private let count: Int
        private var data: [UInt8] = []
        /// Where `data` begins in the section, and how much of the section is read.
        private var dataStart = 0
        private var loaded = 0
        private var hash = SectionHash()

        init(_ source: Source, at start: Int, count: Int) {
            (self.source, self.start, self.count) = (source, start, count)
        }

        /// The same section, to be read again from its start.
        var rewound: Window { Window(source, at: start, count: count) }

        /// Makes the section's bytes at `offset`, `length` of them, present, and says where
        /// they are for `withBytes`; `offset` is never before the last asked. What is before
        /// `offset` is let go, and the next blocks are read in behind what is left, in the
        /// buffer's own room (no block of its own each time, whose fresh pages would fault
        /// in).
        mutating func bring(_ offset: Int, _ length: Int) throws(Refusal) -> Int {
            guard offset >= dataStart, length >= 0, offset + length <= count else {
                throw .damaged("it is cut short")
            }
            if offset + length > loaded {
                data.removeFirst(min(offset, loaded) - dataStart)
                dataStart = min(offset, loaded)
                while offset + length > loaded { try readBlock() }
            }
            return offset - dataStart
        }

        /// Calls `body` with the section's bytes at `offset`, `length` of them, made present
        /// (`bring`), in place.
        mutating func read<R>(
            _ offset: Int, _ length: Int, _ body: (UnsafeRawBufferPointer) -> R
        ) throws(Refusal) -> R {
            let at = try bring(offset, length)
            return data.withUnsafeBytes {
                body(UnsafeRawBufferPointer(rebasing: $0[at..<at + length]))
            }
        }

        func withBytes<R, E: Error>(
            _ at: Int, _ length: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R
        ) throws(E) -> R {
            let result = data.withUnsafeBytes { raw in
                Result { () throws(E) in
                    try body(UnsafeRawBufferPointer(rebasing: raw[at..<at + length]))
                }
            }
            return try result.get()
        }

        /// The whole section, read into one chunk, and its checksum; nothing of it read
        /// before.
        func whole() throws(Refusal) -> (ByteChunk, UInt64) {
            let chunk = ByteChunk.create(count: count)
            let sum = try chunk.withUnsafeMutableBytes(count: count) { r throws(Refusal) in
                try source.fill(r, at: start)
                return SectionHash.of(UnsafeRawBufferPointer(r))
            }
            return (chunk, sum)
        }

        /// The section's checksum, once every block is read.
        mutating func sum() throws(Refusal) -> UInt64 {
            if count == 0 { try readBlock() }
            while loaded < count {
                data.removeAll(keepingCapacity: true)
                dataStart = loaded
                try readBlock()
            }
            return hash.value
        }

        /// Reads the next block in behind `data`, and adds it to the checksum.
        private mutating func readBlock() throws(Refusal) {
            let size = min(Layout.block, count - loaded)
            let end = data.count
            data.append(contentsOf: repeatElement(0, count: size))
            let (source, at) = (source, start + loaded)
            var hash = self.hash
            try data.withUnsafeMutableBytes { raw in
                Result { () throws(Refusal) in
                    let block = UnsafeMutableRawBufferPointer(rebasing: raw[end..<end + size])
                    try source.fill(block, at: at)
                    hash.add(block: UnsafeRawBufferPointer(block))
                }
            }.get()
            self.hash = hash
            loaded += size
        }
    }
}
