extension StartCache {
    /// Where a cache is read from: its file, or bytes in memory (tests).
    enum Source {
        case memory([UInt8])
        case file(FileDescriptor, size: Int)

        var size: Int {
            switch self {
            case .memory(let bytes): bytes.count
            case .file(_, let size): size
            }
        }

        /// Fills `buffer` with the bytes at `offset`, all of them.
        func fill(_ buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Refusal) {
            guard offset >= 0, offset + buffer.count <= size else {
                throw .damaged("it is cut short")
            }
            switch self {
            case .memory(let bytes):
                bytes.withUnsafeBytes {
                    buffer.copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + buffer.count]))
                }
            case .file(let fd, _):
                var done = 0
                while done < buffer.count {
                    let n = try? fd.read(
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]),
                        at: offset + done)
                    guard let n, n > 0 else { throw .damaged("it could not be read whole") }
                    done += n
                }
            }
        }

        func bytes(count: Int, at offset: Int) throws(Refusal) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: count)
            try out.withUnsafeMutableBytes { r in
                Result { () throws(Refusal) in try fill(r, at: offset) }
            }.get()
            return out
        }
    }

    /// The cache `bytes` hold, if it is one this build reads, of `directory`, whole.
    ///
    /// - Throws: `Refusal`, saying why it is not used.
    init(decoding bytes: [UInt8], for directory: Directory) throws(Refusal) {
        try self.init(reading: .memory(bytes), for: directory)
    }

    /// The cache `source` holds, if it is one this build reads, of `directory`, under
    /// `terms` when given; with its items' bytes unless `withBytes` is false (a reader of
    /// its heads alone). What decides a refusal is read first: the format, then the
    /// trailer, the header, the records; the bytes last.
    ///
    /// - Throws: `Refusal`, saying why it is not used.
    init(
        reading source: Source, for directory: Directory, terms: Fingerprint? = nil,
        withBytes: Bool = true
    ) throws(Refusal) {
        let size = source.size
        let magic = Self.magic
        guard size >= magic.count + 4 + Layout.trailer else { throw .damaged("it is cut short") }
        let opening = try source.bytes(count: magic.count + 4, at: 0)
        guard Array(opening.prefix(magic.count)) == magic else {
            throw .damaged("not a start cache")
        }
        let written = opening.withUnsafeBytes { $0.little(magic.count, as: UInt32.self) }
        guard written == Self.format else { throw .otherFormat(written) }
        let trailer = try source.bytes(count: Layout.trailer, at: size - Layout.trailer)
        let fields = trailer.withUnsafeBytes { raw in
            (0..<9).map { raw.little($0 * 8, as: UInt64.self) }
        }
        guard Fingerprint(Array(trailer.prefix(64))).hash == fields[8] else {
            throw .damaged("its checksum does not match")
        }
        // The sections' lengths, each checked before any sum is made of them.
        let limit = UInt64(UInt32.max)
        guard fields.prefix(4).allSatisfy({ $0 < limit }), fields[1] <= limit / 128 else {
            throw .damaged("its sections do not add up to its size")
        }
        let (records, count) = (Int(fields[0]), Int(fields[1]))
        let (namesCount, bytesCount) = (Int(fields[2]), Int(fields[3]))
        let names = records + count * Layout.record
        guard records >= opening.count, names + namesCount + bytesCount + Layout.trailer == size
        else { throw .damaged("its sections do not add up to its size") }
        let metadata = try source.bytes(count: names + namesCount, at: 0)
        let sums = metadata.withUnsafeBytes { raw in
            [(0, records), (records, names), (names, names + namesCount)].map { start, end in
                SectionHash.of(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
            }
        }
        guard sums == Array(fields[4..<7]) else { throw .damaged("its checksum does not match") }
        var reader = Reader(bytes: metadata, from: opening.count, to: records)
        let header = try reader.header()
        guard header.directory == directory else { throw .otherDirectory }
        if let terms, header.terms != terms { throw .otherTerms }
        try Self.check(metadata, records: records, names: names, count: count, bytes: bytesCount)
        var chunk: ByteChunk?
        if withBytes {
            let whole = ByteChunk.create(count: bytesCount)
            try whole.withUnsafeMutableBytes(count: bytesCount) { r throws(Refusal) in
                try source.fill(r, at: names + namesCount)
                guard SectionHash.of(UnsafeRawBufferPointer(r)) == fields[7] else {
                    throw .damaged("its checksum does not match")
                }
            }
            chunk = whole
        }
        self.header = header
        entries = Entries(
            metadata: metadata, records: records, names: names, count: count, bytes: chunk)
    }

    /// Checks every record against the sections: names and bytes one after another in
    /// order, ids UTF-8 and sorted, heads of a known tag and kind.
    private static func check(
        _ metadata: [UInt8], records: Int, names: Int, count: Int, bytes: Int
    ) throws(Refusal) {
        let wrong = metadata.withUnsafeBytes { raw in
            Self.wrong(in: raw, records: records, names: names, count: count, bytes: bytes)
        }
        if let wrong { throw .damaged(wrong) }
    }

    /// What is wrong with the records in `raw` (a cache's header, records and names), if
    /// anything.
    private static func wrong(
        in raw: UnsafeRawBufferPointer, records: Int, names: Int, count: Int, bytes: Int
    ) -> String? {
        var (nameAt, bytesAt) = (0, 0)
        var last: UnsafeBufferPointer<UInt8>?
        for k in 0..<count {
            let r = records + k * Layout.record
            let nameCount = Int(raw.little(r + Layout.nameCount, as: UInt32.self))
            let itemCount = Int(raw.little(r + Layout.bytesCount, as: UInt32.self))
            guard Int(raw.little(r + Layout.nameOffset, as: UInt32.self)) == nameAt,
                nameCount <= Layout.longestName, nameAt + nameCount <= raw.count - names,
                Int(raw.little(r + Layout.bytesOffset, as: UInt32.self)) == bytesAt,
                bytesAt + itemCount <= bytes
            else { return "the entry \(k) is not where its record says" }
            let name = UnsafeRawBufferPointer(
                rebasing: raw[names + nameAt..<names + nameAt + nameCount]
            ).assumingMemoryBound(to: UInt8.self)
            guard String(validating: name, as: UTF8.self) != nil else {
                return "an id is not UTF-8"
            }
            if let last, UTF8Key.compare(last, name) >= 0 { return "its entries are not in order" }
            switch raw.little(r + Layout.headTag, as: UInt8.self) {
            case 0, 1: break
            case 2:
                guard Int(raw.little(r + Layout.headKind, as: UInt8.self)) < kinds.count else {
                    return "a head of no kind"
                }
            case let other: return "a head tagged \(other)"
            }
            (nameAt, bytesAt, last) = (nameAt + nameCount, bytesAt + itemCount, name)
        }
        guard nameAt == raw.count - names, bytesAt == bytes else {
            return "bytes follow its last entry"
        }
        return nil
    }

    /// Reads a header's fields, every length checked against what is left.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int
        let end: Int

        init(bytes: [UInt8], from offset: Int, to end: Int) {
            (self.bytes, self.offset, self.end) = (bytes, offset, end)
        }

        mutating func read<T: FixedWidthInteger>(_ type: T.Type) throws(Refusal) -> T {
            guard end - offset >= MemoryLayout<T>.size else { throw .damaged("it is cut short") }
            defer { offset += MemoryLayout<T>.size }
            return bytes.withUnsafeBytes { $0.little(offset) }
        }

        mutating func header() throws(Refusal) -> Header {
            let directory = Directory(device: try read(UInt64.self), inode: try read(UInt64.self))
            let lookedAt = try read(Int64.self)
            let revision = try read(Int64.self)
            let length = Int(try read(UInt32.self))
            guard end - offset >= length else { throw .damaged("it is cut short") }
            guard let journal = String(validating: bytes[offset..<offset + length], as: UTF8.self)
            else { throw .damaged("its journal is not named in UTF-8") }
            offset += length
            let stamp =
                revision < 0 ? nil : JournalStamp(revision: Int(revision), journalID: journal)
            let (segment, at) = (try read(Int64.self), try read(Int64.self))
            let position =
                segment < 0 || at < 0
                ? nil : Journal.Position(segment: .init(first: Int(segment)), offset: Int(at))
            let (termsSize, termsHash) = (try read(Int64.self), try read(UInt64.self))
            var header = Header(
                directory: directory, lookedAt: lookedAt, stamp: stamp, position: position,
                terms: termsSize < 0 ? nil : Fingerprint(size: Int(termsSize), hash: termsHash))
            header.headsComplete = try read(UInt8.self) == 1
            guard offset == end else { throw .damaged("bytes follow its header") }
            return header
        }
    }
}
