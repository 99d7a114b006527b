/// The heads of the ids of one snapshot's tree, held by their rank there in 8 bytes each:
/// no key (the tree has it), no slot to find it by, and no fingerprint, which is the
/// entry's.
///
/// A look at the whole store needs every item's head at once, and then finds almost every
/// one recording exactly the version the snapshot holds. In `HeadTable`'s own entries a
/// head took 56 bytes with its key and slots: 53 MiB at a million items, beside the store
/// itself (issue 28). A head that does not fit here (another fingerprint than the entry's,
/// a field out of range) is not held: `HeadTable` keeps it with its key.
struct BoundHeads: Sendable {
    /// The tree whose ranks these are; immutable, so an entry's fingerprint never changes.
    let tree: SortedTree<UTF8Key, Entry>
    /// A code per rank (`code(of:fingerprint:)`), 0 where no head is held.
    private var codes: [UInt64]
    /// The number of ranks holding a head (or that there is none).
    private(set) var count = 0

    init(_ tree: SortedTree<UTF8Key, Entry>) {
        self.tree = tree
        codes = [UInt64](repeating: 0, count: tree.count)
    }

    /// The memory it takes (`MemoryUsage`), beside the tree, which the store holds.
    var footprint: Int { codes.capacity * MemoryLayout<UInt64>.stride }

    /// Where `key` is in the tree, with its entry's fingerprint; `nil` when it is not.
    func place(of key: UTF8Key) -> (rank: Int, fingerprint: Fingerprint?)? {
        tree.find(key).map { ($0.rank, $0.value.fingerprint) }
    }

    /// The head held at `rank`, whose entry has `fingerprint`: `nil` when none is held,
    /// `.some(nil)` when the journal has no entry of it.
    func head(at rank: Int, fingerprint: Fingerprint?) -> JournalHeads.Head?? {
        Self.head(codes[rank], fingerprint: fingerprint)
    }

    /// Holds `head` at `rank`, whose entry has `fingerprint`, when it fits; when it does
    /// not, lets go of what was held there and returns `false`.
    mutating func set(_ head: JournalHeads.Head?, at rank: Int, fingerprint: Fingerprint?) -> Bool {
        let code = Self.code(of: head, fingerprint: fingerprint)
        count += (code != 0 ? 1 : 0) - (codes[rank] != 0 ? 1 : 0)
        codes[rank] = code
        return code != 0
    }

    /// Calls `body` with each key holding a head here and its head, in key order.
    func forEach(_ body: (UTF8Key, JournalHeads.Head?) throws -> Void) rethrows {
        guard count > 0 else { return }
        var rank = 0
        try tree.forEach { key, entry in
            defer { rank += 1 }
            if let head = head(at: rank, fingerprint: entry.fingerprint) { try body(key, head) }
        }
    }

    // A code's fields, from its lowest bits: the tag (2 bits: 0 nothing held, 1 no entry,
    // 2 a head), the kind (2), the modifications since a whole value (5), how far back
    // that whole value is (20; all ones for none known) and the revision (35).

    private static let distanceBits = 20
    private static let unknownDistance: UInt64 = (1 << distanceBits) - 1
    private static let revisionShift = 9 + distanceBits
    private static let revisionLimit = 1 << (64 - revisionShift)

    /// `head`'s code, or 0 when it does not fit.
    private static func code(of head: JournalHeads.Head?, fingerprint: Fingerprint?) -> UInt64 {
        guard let head else { return 1 }
        guard head.fingerprint == fingerprint, head.revision >= 0,
            head.revision < revisionLimit, (0...31).contains(head.sinceKeyframe)
        else { return 0 }
        let distance: UInt64
        if head.wholeAt == 0 {
            distance = unknownDistance
        } else {
            let back = head.revision - head.wholeAt
            guard back >= 0, back < unknownDistance else { return 0 }
            distance = UInt64(back)
        }
        return 2 | head.kind.packed << 2 | UInt64(head.sinceKeyframe) << 4 | distance << 9
            | UInt64(head.revision) << revisionShift
    }

    private static func head(_ code: UInt64, fingerprint: Fingerprint?) -> JournalHeads.Head?? {
        switch code & 3 {
        case 0: return nil
        case 1: return .some(nil)
        default: break
        }
        let revision = Int(code >> revisionShift)
        let distance = code >> 9 & unknownDistance
        return JournalHeads.Head(
            revision: revision, kind: HistoryEntry.Kind(packed: code >> 2),
            fingerprint: fingerprint,
            sinceKeyframe: Int(code >> 4 & 31),
            wholeAt: distance == unknownDistance ? 0 : revision - Int(distance))
    }
}
