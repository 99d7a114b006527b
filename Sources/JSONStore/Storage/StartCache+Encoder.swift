extension StartCache {
    /// Where an encoder puts a cache: a file, or memory.
    protocol Sink {
        /// Writes all of `bytes` at `offset`.
        mutating func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Errno)
    }

    /// A cache in memory, for what wants its bytes (tests).
    struct MemorySink: Sink {
        var bytes: [UInt8] = []

        mutating func write(_ raw: UnsafeRawBufferPointer, at offset: Int) throws(Errno) {
            if bytes.count < offset + raw.count {
                bytes += repeatElement(0, count: offset + raw.count - bytes.count)
            }
            bytes.withUnsafeMutableBytes { out in
                UnsafeMutableRawBufferPointer(rebasing: out[offset..<offset + raw.count])
                    .copyMemory(from: raw)
            }
        }
    }

    /// Writes a cache entry by entry, as it is made: it holds a block of each section
    /// (`Layout.block`), never the cache.
    ///
    /// The count of entries and of their ids' bytes are given first, so each section's
    /// place is known; an entry out of order, or more or fewer than were counted, fails
    /// the cache (`Errno.invalidArgument`) rather than writing one that lies. Offsets into
    /// the bytes are 32 bits: an item whose bytes would end past 4 GiB is written as one
    /// to read again.
    struct Encoder<Output: Sink> {
        private(set) var output: Output
        private var sections: [Section]
        private let count: Int
        private let namesCount: Int
        private var appended = 0
        private var namesUsed = 0
        private var bytesUsed = 0
        private var lastName: [UInt8] = []
        private var record = [UInt8](repeating: 0, count: Layout.record)

        init(header: Header, count: Int, namesCount: Int, into output: Output) {
            var head = magic
            func put<T: FixedWidthInteger>(_ value: T) {
                withUnsafeBytes(of: value.littleEndian) { head.append(contentsOf: $0) }
            }
            put(format)
            put(header.directory.device)
            put(header.directory.inode)
            put(header.lookedAt)
            put(Int64(header.stamp?.revision ?? -1))
            let journal = Array((header.stamp?.journal ?? "").utf8)
            put(UInt32(journal.count))
            head += journal
            put(Int64(header.position?.segment.first ?? -1))
            put(Int64(header.position?.offset ?? 0))
            put(Int64(header.terms?.size ?? -1))
            put(header.terms?.hash ?? 0)
            put(UInt8(header.headsComplete ? 1 : 0))
            let records = head.count
            let names = records + count * Layout.record
            sections = [
                Section(start: 0), Section(start: records), Section(start: names),
                Section(start: names + namesCount),
            ]
            self.output = output
            self.count = count
            self.namesCount = namesCount
            sections[0].buffer = head
        }

        /// Appends the next entry: its id after the last one's, by their bytes.
        mutating func append(_ entry: Entry) throws(Errno) {
            var entry = entry
            // Offsets into the bytes are 32 bits: an item past them is one to read again.
            if bytesUsed + Int(entry.bytes.count) >= Int(UInt32.max) {
                (entry.signature, entry.bytes) = (.unknown, ItemBytes([UInt8]()))
                entry.fingerprint = Fingerprint([UInt8]())
            }
            let name = Array(entry.id.utf8)
            guard appended < count, namesCount < Int(UInt32.max),
                namesUsed + name.count <= namesCount,
                name.count <= Layout.longestName,
                appended == 0 || Self.less(lastName, name)
            else { throw .invalidArgument }
            let kept = Int(entry.bytes.count)
            record.withUnsafeMutableBytes { r in
                r.initializeMemory(as: UInt8.self, repeating: 0)
                r.putLittle(UInt32(namesUsed), at: Layout.nameOffset)
                r.putLittle(UInt32(name.count), at: Layout.nameCount)
                r.putLittle(entry.signature.device, at: Layout.device)
                r.putLittle(entry.signature.inode, at: Layout.inode)
                r.putLittle(entry.signature.size, at: Layout.size)
                r.putLittle(entry.signature.modified, at: Layout.modified)
                r.putLittle(entry.signature.changed, at: Layout.changed)
                r.putLittle(entry.fingerprint.hash, at: Layout.hash)
                r.putLittle(UInt32(bytesUsed), at: Layout.bytesOffset)
                r.putLittle(UInt32(kept), at: Layout.bytesCount)
                switch entry.head {
                case .unknown: break
                case .none: r.putLittle(UInt8(1), at: Layout.headTag)
                case .head(let head):
                    r.putLittle(UInt8(2), at: Layout.headTag)
                    r.putLittle(UInt8(kinds.firstIndex(of: head.kind)!), at: Layout.headKind)
                    r.putLittle(Int64(head.revision), at: Layout.headRevision)
                    r.putLittle(Int64(head.fingerprint?.size ?? -1), at: Layout.headSize)
                    r.putLittle(head.fingerprint?.hash ?? 0, at: Layout.headHash)
                    r.putLittle(Int64(head.sinceKeyframe), at: Layout.headSince)
                    r.putLittle(Int64(head.wholeAt), at: Layout.headWhole)
                }
            }
            try add(record, to: 1)
            try add(name, to: 2)
            try entry.bytes.withUnsafeBytes { r in
                Result { () throws(Errno) in try add(r, to: 3) }
            }.get()
            appended += 1
            namesUsed += name.count
            bytesUsed += kept
            lastName = name
        }

        /// Where the records and the ids begin.
        var recordsStart: Int { sections[1].start }
        var namesStart: Int { sections[2].start }

        /// Writes what is left of each section and the trailer: the cache is whole.
        mutating func finish() throws(Errno) {
            guard appended == count, namesUsed == namesCount else { throw .invalidArgument }
            for k in sections.indices { try sections[k].flush(to: &output, last: true) }
            var trailer: [UInt8] = []
            for field in [
                UInt64(sections[1].start), UInt64(count), UInt64(namesCount), UInt64(bytesUsed),
            ] + sections.map(\.hash.value) {
                withUnsafeBytes(of: field.littleEndian) { trailer.append(contentsOf: $0) }
            }
            withUnsafeBytes(of: Fingerprint(trailer).hash.littleEndian) {
                trailer.append(contentsOf: $0)
            }
            let end = sections[3].start + bytesUsed
            try trailer.withUnsafeBytes { r in
                Result { () throws(Errno) in try output.write(r, at: end) }
            }.get()
        }

        private static func less(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            a.withUnsafeBufferPointer { x in
                b.withUnsafeBufferPointer { UTF8Key.compare(x, $0) < 0 }
            }
        }

        private mutating func add(_ bytes: [UInt8], to k: Int) throws(Errno) {
            try bytes.withUnsafeBytes { r in Result { () throws(Errno) in try add(r, to: k) } }
                .get()
        }

        private mutating func add(_ bytes: UnsafeRawBufferPointer, to k: Int) throws(Errno) {
            var rest = bytes
            while !rest.isEmpty {
                let room = Layout.block - sections[k].buffer.count
                let part = UnsafeRawBufferPointer(rebasing: rest.prefix(room))
                sections[k].buffer.append(contentsOf: part)
                rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(part.count))
                if sections[k].buffer.count == Layout.block {
                    try sections[k].flush(to: &output, last: false)
                }
            }
        }

        /// One section being written: the block it fills, where the next one goes.
        private struct Section {
            let start: Int
            var buffer: [UInt8] = []
            var written = 0
            var hash = SectionHash()

            /// Writes the block filled so far; the `last` one even when empty, when the
            /// section is (its checksum is then an empty block's).
            mutating func flush(to output: inout Output, last: Bool) throws(Errno) {
                guard !buffer.isEmpty || (last && written == 0) else { return }
                hash = buffer.withUnsafeBytes { r in
                    var next = hash
                    next.add(block: r)
                    return next
                }
                try buffer.withUnsafeBytes { r in
                    Result { () throws(Errno) in try output.write(r, at: start + written) }
                }.get()
                written += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }
}
