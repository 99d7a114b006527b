/// Where everything is in a start cache's file.
///
/// Four sections and a trailer, integers little-endian:
///
/// - the header: the magic, the format, then `Header`'s fields;
/// - the records: one of `Layout.record` bytes an entry, in the order of the ids' bytes
///   (`Layout`'s offsets), each naming its id and its item's bytes by offset and length;
/// - the names: the ids' bytes, one after another in the records' order;
/// - the bytes: the items' bytes, one after another in the same order (none for an entry
///   to read again);
/// - the trailer: the sections' lengths and the entry count, a checksum of each section
///   and one of the trailer itself.
///
/// Fixed-size records let a reader find any entry's fields without decoding the others,
/// and keep the items' bytes apart from what is only needed at the start.
extension StartCache {
    enum Layout {
        /// A record's size and its fields' offsets.
        static let record = 112
        static let nameOffset = 0  // UInt32, into the names
        static let nameCount = 4  // UInt32
        static let device = 8  // UInt64, then the signature's inode, size, times
        static let inode = 16
        static let size = 24
        static let modified = 32
        static let changed = 40
        static let hash = 48  // UInt64: the fingerprint's hash (its size is the bytes')
        static let bytesOffset = 56  // UInt32, into the bytes
        static let bytesCount = 60  // UInt32
        static let headTag = 64  // UInt8: 0 unknown, 1 none, 2 a head
        static let headKind = 65  // UInt8: its index in `StartCache.kinds`
        static let headRevision = 72  // Int64, then its fingerprint (size < 0: none)
        static let headSize = 80
        static let headHash = 88
        static let headSince = 96
        static let headWhole = 104

        /// The trailer's size: eight 64-bit fields (header length, entry count, names'
        /// and bytes' lengths, the four sections' checksums) and its own checksum.
        static let trailer = 72
        /// The most bytes a name may have (a file name's limit, with room).
        static let longestName = 1024
        /// Sections are checksummed in blocks of this size (`SectionHash`), which is also
        /// what a writer holds of each.
        static let block = 1 << 20

        // A record's fields, from its bytes (checked by `RecordCheck`).

        static func signature(_ r: UnsafeRawBufferPointer) -> FileSignature {
            FileSignature(
                device: r.little(device), inode: r.little(inode), size: r.little(size),
                modified: r.little(modified), changed: r.little(changed))
        }

        static func fingerprint(_ r: UnsafeRawBufferPointer) -> Fingerprint {
            Fingerprint(size: Int(r.little(bytesCount, as: UInt32.self)), hash: r.little(hash))
        }

        static func head(_ r: UnsafeRawBufferPointer) -> Head {
            let kind = Int(r.little(headKind, as: UInt8.self))
            switch r.little(headTag, as: UInt8.self) {
            case 1: return .none
            // Checked by `RecordCheck`; a file changed in place since is not trusted.
            case 2 where kind < kinds.count:
                let size: Int64 = r.little(headSize)
                return .head(
                    JournalHeads.Head(
                        revision: Int(r.little(headRevision, as: Int64.self)),
                        kind: kinds[kind],
                        fingerprint: size < 0
                            ? nil : Fingerprint(size: Int(size), hash: r.little(headHash)),
                        sinceKeyframe: Int(r.little(headSince, as: Int64.self)),
                        wholeAt: Int(r.little(headWhole, as: Int64.self))))
            default: return .unknown
            }
        }
    }

    /// A head's kind in the file, by its place here.
    static let kinds: [HistoryEntry.Kind] = [.created, .modified, .deleted]

    /// The checksum of one section: its blocks of `Layout.block` bytes, each fingerprinted,
    /// folded in order. Made as a writer fills its blocks, and again as a reader reads them.
    struct SectionHash {
        private(set) var value: UInt64 = 0x1319_8A2E_0370_7344

        mutating func add(block: UnsafeRawBufferPointer) {
            value = (value ^ Fingerprint(block).hash) &* 0x9E37_79B9_7F4A_7C15
            value ^= value >> 32
        }

        /// The checksum of `bytes`, block by block.
        static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
            var hash = SectionHash()
            var offset = 0
            repeat {
                let end = min(offset + Layout.block, bytes.count)
                hash.add(block: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                offset = end
            } while offset < bytes.count
            return hash.value
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The little-endian integer at `offset`.
    @inline(__always)
    func little<T: FixedWidthInteger>(_ offset: Int, as type: T.Type = T.self) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}

extension UnsafeMutableRawBufferPointer {
    /// Stores `value` little-endian at `offset`.
    @inline(__always)
    func putLittle<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
    }
}
