extension StartCache {
    /// The cache as its file holds it: a header (magic, format, directory, look, stamp),
    /// the entries, and a checksum of everything before it; integers little-endian.
    func encoded() -> [UInt8] {
        var out = StartCache.magic
        out.reserveCapacity(entries.reduce(128) { $0 + $1.name.utf8.count + $1.bytes.count + 72 })
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
        put(UInt64(entries.count))
        for entry in entries {
            put(Array(entry.name.utf8))
            put(entry.signature.device)
            put(entry.signature.inode)
            put(entry.signature.size)
            put(entry.signature.modified)
            put(entry.signature.changed)
            put(UInt64(entry.fingerprint.size))
            put(entry.fingerprint.hash)
            put(entry.bytes)
        }
        put(Fingerprint(out).hash)
        return out
    }

    /// The cache `bytes` hold, if it is one this build reads, of `directory`, whole.
    ///
    /// - Throws: `Refusal`, saying why it is not used.
    init(decoding bytes: [UInt8], for directory: Directory) throws(Refusal) {
        var reader = Reader(bytes: bytes)
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
        let count = try reader.read(UInt64.self)
        // Each entry takes at least 64 bytes: a count beyond that is damage, not a reason
        // to reserve room.
        guard count <= UInt64(reader.end - reader.offset) / 64 else {
            throw .damaged("it counts more entries than it holds")
        }
        entries = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let name = try reader.text()
            let signature = FileSignature(
                device: try reader.read(UInt64.self), inode: try reader.read(UInt64.self),
                size: try reader.read(Int64.self), modified: try reader.read(Int64.self),
                changed: try reader.read(Int64.self))
            let size = try reader.read(UInt64.self)
            let hash = try reader.read(UInt64.self)
            let item = try reader.chunk()
            let fingerprint = Fingerprint(item)
            guard UInt64(fingerprint.size) == size, fingerprint.hash == hash else {
                throw .damaged("the entry \(name) is not the bytes it names")
            }
            if let last = entries.last, !UTF8Key.less(last.name, name) {
                throw .damaged("its entries are not in order")
            }
            entries.append(
                Entry(name: name, signature: signature, fingerprint: fingerprint, bytes: item))
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

        mutating func chunk() throws(Refusal) -> [UInt8] {
            let count = Int(try read(UInt32.self))
            guard end - offset >= count else { throw .damaged("it is cut short") }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func text() throws(Refusal) -> String {
            let raw = try chunk()
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw .damaged("a name is not UTF-8")
            }
            return text
        }
    }
}
