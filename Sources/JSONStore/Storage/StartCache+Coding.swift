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
                guard (try? fd.readFully(into: buffer, at: offset)) == buffer.count else {
                    throw .damaged("it could not be read whole")
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
    /// `terms` when given, every entry read (a cursor's walk, to its end). What decides
    /// a refusal is read first: the format, then the trailer, the header, the records; the
    /// items' bytes last.
    ///
    /// - Throws: `Refusal`, saying why it is not used.
    init(reading source: Source, for directory: Directory, terms: Fingerprint? = nil)
        throws(Refusal)
    {
        let cursor = try Cursor(source, for: directory, terms: terms)
        guard cursor.readItems() else { throw .damaged("its checksum does not match") }
        var entries: [Entry] = []
        entries.reserveCapacity(cursor.count)
        for k in 0..<cursor.count {
            let id = cursor.id(at: k)
            guard let entry = cursor.record(at: k).flatMap({ cursor.entry($0, id: id) }) else {
                throw .damaged("it could not be read whole")
            }
            entries.append(entry)
        }
        guard cursor.walkedIntact() else { throw .damaged("its checksum does not match") }
        (header, self.entries) = (cursor.header, entries)
    }

    /// Reads a header's fields, every length checked against what is left.
    struct Reader {
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
