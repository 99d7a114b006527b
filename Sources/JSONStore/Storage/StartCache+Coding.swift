extension StartCache {
    /// A head's kind in the file, by its place here.
    static let kinds: [HistoryEntry.Kind] = [.created, .modified, .deleted]

    /// The cache as its file holds it: a header (magic, format, directory, look, stamp),
    /// the entries, and a checksum of everything before it; integers little-endian.
    func encoded() -> [UInt8] {
        var out = StartCache.magic
        out.reserveCapacity(
            entries.reduce(160) { $0 + $1.id.utf8.count + Int($1.bytes.count) + 72 })
        func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
        }
        func put(_ bytes: some Collection<UInt8>) {
            // An item is at most `Options.maxFileSize`, far below 4 GiB.
            put(UInt32(clamping: bytes.count))
            out.append(contentsOf: bytes)
        }
        put(StartCache.format)
        put(directory.device)
        put(directory.inode)
        put(lookedAt)
        put(Int64(stamp?.revision ?? -1))
        put(Array((stamp?.journal ?? "").utf8))
        put(Int64(position?.segment.first ?? -1))
        put(Int64(position?.offset ?? 0))
        put(Int64(terms?.size ?? -1))
        put(terms?.hash ?? 0)
        put(UInt8(headsComplete ? 1 : 0))
        put(UInt64(entries.count))
        for entry in entries {
            put(Array(entry.id.utf8))
            put(entry.signature.device)
            put(entry.signature.inode)
            put(entry.signature.size)
            put(entry.signature.modified)
            put(entry.signature.changed)
            put(UInt64(entry.fingerprint.size))
            put(entry.fingerprint.hash)
            entry.bytes.withUnsafeBytes { put($0) }
            switch entry.head {
            case .unknown: put(UInt8(0))
            case .none: put(UInt8(1))
            case .head(let head):
                put(UInt8(2))
                put(Int64(head.revision))
                put(UInt8(StartCache.kinds.firstIndex(of: head.kind)!))
                put(Int64(head.fingerprint?.size ?? -1))
                put(head.fingerprint?.hash ?? 0)
                put(Int64(head.sinceKeyframe))
                put(Int64(head.wholeAt))
            }
        }
        put(Fingerprint(out).hash)
        return out
    }

    /// The cache `bytes` hold, if it is one this build reads, of `directory`, whole.
    ///
    /// - Throws: `Refusal`, saying why it is not used.
    init(decoding bytes: [UInt8], for directory: Directory) throws(Refusal) {
        var reader = Reader(bytes: bytes)
        // Entries are ranges of the file's bytes, at offsets of 32 bits.
        guard bytes.count < Int(UInt32.max) else { throw .damaged("it is larger than 4 GiB") }
        guard bytes.count >= StartCache.magic.count + 8,
            Array(bytes.prefix(StartCache.magic.count)) == StartCache.magic
        else { throw .damaged("not a start cache") }
        let body = bytes.count - 8
        let checksum = Reader(bytes: bytes, at: body).integer(UInt64.self)
        guard checksum == Fingerprint(Array(bytes[..<body])).hash else {
            throw .damaged("its checksum does not match")
        }
        reader.offset = StartCache.magic.count
        reader.end = body
        let format = try reader.read(UInt32.self)
        guard format == StartCache.format else { throw .otherFormat(format) }
        let written = Directory(
            device: try reader.read(UInt64.self), inode: try reader.read(UInt64.self))
        guard written == directory else { throw .otherDirectory }
        self.directory = written
        lookedAt = try reader.read(Int64.self)
        let revision = try reader.read(Int64.self)
        let journal = try reader.text()
        stamp = revision < 0 ? nil : JournalStamp(revision: Int(revision), journalID: journal)
        let (segment, offset) = (try reader.read(Int64.self), try reader.read(Int64.self))
        position =
            segment < 0 || offset < 0
            ? nil : Journal.Position(segment: .init(first: Int(segment)), offset: Int(offset))
        let (termsSize, termsHash) = (try reader.read(Int64.self), try reader.read(UInt64.self))
        terms = termsSize < 0 ? nil : Fingerprint(size: Int(termsSize), hash: termsHash)
        headsComplete = try reader.read(UInt8.self) == 1
        let whole = bytes.withUnsafeBytes { ByteChunk.holding($0) }
        let count = try reader.read(UInt64.self)
        // Each entry takes at least 64 bytes: a count beyond that is damage, not a reason
        // to reserve room.
        guard count <= UInt64(reader.end - reader.offset) / 64 else {
            throw .damaged("it counts more entries than it holds")
        }
        entries = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let id = try reader.text()
            let signature = FileSignature(
                device: try reader.read(UInt64.self), inode: try reader.read(UInt64.self),
                size: try reader.read(Int64.self), modified: try reader.read(Int64.self),
                changed: try reader.read(Int64.self))
            let size = try reader.read(UInt64.self)
            let hash = try reader.read(UInt64.self)
            let (start, length) = try reader.span()
            let item = ItemBytes(chunk: whole, offset: UInt32(start), count: UInt32(length))
            let fingerprint = item.withUnsafeBytes { Fingerprint($0) }
            guard UInt64(fingerprint.size) == size, fingerprint.hash == hash else {
                throw .damaged("the entry \(id) is not the bytes it names")
            }
            if let last = entries.last, !UTF8Key.less(last.id, id) {
                throw .damaged("its entries are not in order")
            }
            entries.append(
                Entry(
                    id: id, signature: signature, fingerprint: fingerprint, bytes: item,
                    head: try reader.head()))
        }
        guard reader.offset == reader.end else { throw .damaged("bytes follow its last entry") }
    }

    /// Reads a cache's fields, every length checked against what is left.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var end: Int

        init(bytes: [UInt8], at offset: Int = 0) {
            self.bytes = bytes
            self.offset = offset
            end = bytes.count
        }

        func integer<T: FixedWidthInteger>(_ type: T.Type) -> T {
            var value = T.zero
            for k in 0..<MemoryLayout<T>.size {
                value |= T(truncatingIfNeeded: bytes[offset + k]) << (8 * k)
            }
            return value
        }

        mutating func read<T: FixedWidthInteger>(_ type: T.Type) throws(Refusal) -> T {
            guard end - offset >= MemoryLayout<T>.size else { throw .damaged("it is cut short") }
            defer { offset += MemoryLayout<T>.size }
            return integer(type)
        }

        /// An entry's journal head (`StartCache.Head`).
        mutating func head() throws(Refusal) -> Head {
            switch try read(UInt8.self) {
            case 0: return .unknown
            case 1: return .none
            case 2:
                let revision = try read(Int64.self)
                let kind = Int(try read(UInt8.self))
                let (size, hash) = (try read(Int64.self), try read(UInt64.self))
                let (since, whole) = (try read(Int64.self), try read(Int64.self))
                guard kind < StartCache.kinds.count else { throw .damaged("a head of no kind") }
                return .head(
                    JournalHeads.Head(
                        revision: Int(revision), kind: StartCache.kinds[kind],
                        fingerprint: size < 0 ? nil : Fingerprint(size: Int(size), hash: hash),
                        sinceKeyframe: Int(since), wholeAt: Int(whole)))
            case let other: throw .damaged("a head tagged \(other)")
            }
        }

        /// Where the next length-prefixed field starts, and its length.
        mutating func span() throws(Refusal) -> (start: Int, count: Int) {
            let count = Int(try read(UInt32.self))
            guard end - offset >= count else { throw .damaged("it is cut short") }
            defer { offset += count }
            return (offset, count)
        }

        mutating func chunk() throws(Refusal) -> [UInt8] {
            let (start, count) = try span()
            return Array(bytes[start..<start + count])
        }

        mutating func text() throws(Refusal) -> String {
            let raw = try chunk()
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw .damaged("an id is not UTF-8")
            }
            return text
        }
    }
}
