extension StartCache {
    /// Where a cache's sections are, as its trailer says, and its header: read and checked
    /// before anything else is.
    struct Sections {
        let header: Header
        /// Where the records, names and bytes begin in the file, and their lengths.
        let records: Int
        let count: Int
        let names: Int
        let namesCount: Int
        let bytes: Int
        let bytesCount: Int
        /// The checksums of the header, records, names and bytes (`SectionHash`).
        let sums: [UInt64]

        init(_ source: Source, for directory: Directory, terms: Fingerprint?) throws(Refusal) {
            let size = source.size
            let magic = StartCache.magic
            guard size >= magic.count + 4 + Layout.trailer else {
                throw .damaged("it is cut short")
            }
            let opening = try source.bytes(count: magic.count + 4, at: 0)
            guard Array(opening.prefix(magic.count)) == magic else {
                throw .damaged("not a start cache")
            }
            let written = opening.withUnsafeBytes { $0.little(magic.count, as: UInt32.self) }
            guard written == StartCache.format else { throw .otherFormat(written) }
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
            (records, count) = (Int(fields[0]), Int(fields[1]))
            (namesCount, bytesCount) = (Int(fields[2]), Int(fields[3]))
            names = records + count * Layout.record
            bytes = names + namesCount
            guard records >= opening.count, bytes + bytesCount + Layout.trailer == size else {
                throw .damaged("its sections do not add up to its size")
            }
            sums = Array(fields[4..<8])
            let head = try source.bytes(count: records, at: 0)
            guard head.withUnsafeBytes({ SectionHash.of($0) }) == sums[0] else {
                throw .damaged("its checksum does not match")
            }
            var reader = Reader(bytes: head, from: opening.count, to: records)
            header = try reader.header()
            guard header.directory == directory else { throw .otherDirectory }
            if let terms, header.terms != terms { throw .otherTerms }
        }
    }

    /// Checks records one after another, as they are read: names and bytes one after
    /// another in order, ids UTF-8 and sorted, heads of a known tag and kind.
    struct RecordCheck {
        private let namesCount: Int
        private let bytesCount: Int
        private var nameAt = 0
        private var bytesAt = 0
        private var k = 0
        /// The last record's name (from the second record on), kept in one
        /// buffer for the whole check.
        private var last: [UInt8] = []

        init(_ sections: Sections) {
            (namesCount, bytesCount) = (sections.namesCount, sections.bytesCount)
        }

        /// What is wrong with the next record, `record`, if anything: its name is read from
        /// the range of the names the record gives, once that is found in place, by
        /// `withName`, which calls its second argument with the name's bytes.
        mutating func next<E: Error>(
            _ record: UnsafeRawBufferPointer,
            withName: (Range<Int>, (UnsafeBufferPointer<UInt8>) -> String?) throws(E) -> String?
        ) throws(E) -> String? {
            guard let range = nameRange(of: record) else {
                return "the entry \(k) is not where its record says"
            }
            return try withName(range) { name in next(record, name: name) }
        }

        /// Where the next record's name is in the names, if the record is where it should
        /// be.
        private func nameRange(of record: UnsafeRawBufferPointer) -> Range<Int>? {
            let nameCount = Int(record.little(Layout.nameCount, as: UInt32.self))
            let itemCount = Int(record.little(Layout.bytesCount, as: UInt32.self))
            guard Int(record.little(Layout.nameOffset, as: UInt32.self)) == nameAt,
                nameCount <= Layout.longestName, nameAt + nameCount <= namesCount,
                Int(record.little(Layout.bytesOffset, as: UInt32.self)) == bytesAt,
                bytesAt + itemCount <= bytesCount
            else { return nil }
            return nameAt..<nameAt + nameCount
        }

        /// What is wrong with the next record, whose name (`nameRange`) is `name`.
        private mutating func next(
            _ record: UnsafeRawBufferPointer, name: UnsafeBufferPointer<UInt8>
        ) -> String? {
            // Most ids are ASCII: only the others are validated as UTF-8.
            guard name.allSatisfy({ $0 < 0x80 }) || String(validating: name, as: UTF8.self) != nil
            else {
                return "an id is not UTF-8"
            }
            if k > 0, last.withUnsafeBufferPointer({ UTF8Key.compare($0, name) >= 0 }) {
                return "its entries are not in order"
            }
            switch record.little(Layout.headTag, as: UInt8.self) {
            case 0, 1: break
            case 2:
                guard Int(record.little(Layout.headKind, as: UInt8.self)) < kinds.count else {
                    return "a head of no kind"
                }
            case let other: return "a head tagged \(other)"
            }
            nameAt += name.count
            bytesAt += Int(record.little(Layout.bytesCount, as: UInt32.self))
            k += 1
            last.removeAll(keepingCapacity: true)
            last.append(contentsOf: name)
            return nil
        }

        /// What is wrong once every record is checked.
        func finish() -> String? {
            nameAt == namesCount && bytesAt == bytesCount ? nil : "bytes follow its last entry"
        }
    }
}
