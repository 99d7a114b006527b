/// The heads `JournalHeads` knows, by id, in about 56 bytes an id.
///
/// A dictionary of `Head?` took 80 bytes a bucket and, at a million ids, two million
/// buckets: 160 MiB beside a store of 135 (issue 28). Here each head is packed in 32 bytes
/// beside its id, the entries sit side by side in the order they were first known, and a
/// table of 32-bit positions, at most half full, finds them by the id's hash.
struct HeadTable: Sendable {
    private struct Entry: Sendable {
        let key: UTF8Key
        var head: PackedHead
    }

    private var entries: [Entry] = []
    /// Positions in `entries` by the id's hash, probed linearly; -1 for none. Its count is
    /// a power of two, at least twice the entries'.
    private var slots: [Int32] = []

    init() {}

    /// The number of ids known.
    var count: Int { entries.count }

    /// The head known of `key`: `nil` when not known, `.some(nil)` when the journal was
    /// found to have no entry of it.
    subscript(key: UTF8Key) -> JournalHeads.Head?? {
        guard let slot = slot(of: key).found else { return nil }
        return .some(entries[Int(slots[slot])].head.head)
    }

    /// The heads known of `count` keys (`key(i)`), as the subscript gives each, looked up
    /// on every core when there are at least `parallelAbove`.
    func lookUp(
        _ count: Int, parallelAbove threshold: Int, key: @Sendable (Int) -> UTF8Key
    ) -> [JournalHeads.Head??] {
        let table = self
        return ItemFile.parallelMap(count, parallelAbove: threshold, initial: nil) {
            table[key($0)]
        }
    }

    /// Knows `head` as the head of `key` (`nil`: the journal has no entry of it).
    mutating func set(_ head: JournalHeads.Head?, for key: UTF8Key) {
        var (found, empty) = slot(of: key)
        if let found {
            entries[Int(slots[found])].head = PackedHead(head)
            return
        }
        // Grown before an insertion only: an update of a known id takes no room.
        if (entries.count + 1) * 2 > slots.count {
            grow()
            empty = slot(of: key).empty
        }
        slots[empty] = Int32(entries.count)
        entries.append(Entry(key: key, head: PackedHead(head)))
    }

    /// Makes room for `count` ids in all, so a table about to take in many (a first look
    /// at a whole store) is made once at its size, not grown by doubling, which holds the
    /// old entries and slots beside new ones twice their size.
    mutating func reserve(_ count: Int) {
        guard count > entries.capacity else { return }
        // Never less than doubling: a few more at a time must not copy the table each time.
        entries.reserveCapacity(max(count, entries.capacity * 2))
        var slotCount = max(16, slots.count)
        while count * 2 > slotCount { slotCount *= 2 }
        if slotCount > slots.count { rehash(into: slotCount) }
    }

    /// Calls `body` with every id known and its head, in the order they became known.
    func forEach(_ body: (UTF8Key, JournalHeads.Head?) throws -> Void) rethrows {
        for entry in entries { try body(entry.key, entry.head.head) }
    }

    func compactMap<T>(_ transform: (UTF8Key, JournalHeads.Head?) throws -> T?) rethrows -> [T] {
        var result: [T] = []
        try forEach { key, head in
            if let value = try transform(key, head) { result.append(value) }
        }
        return result
    }

    /// The memory it takes (`MemoryUsage`).
    var footprint: Int {
        entries.capacity * MemoryLayout<Entry>.stride + slots.capacity * 4
    }

    /// The slot holding `key`, or else the empty slot where it would go.
    private func slot(of key: UTF8Key) -> (found: Int?, empty: Int) {
        guard !slots.isEmpty else { return (nil, 0) }
        let mask = slots.count - 1
        var slot = key.hashValue & mask
        while true {
            let position = slots[slot]
            if position < 0 { return (nil, slot) }
            if entries[Int(position)].key == key { return (slot, slot) }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        rehash(into: max(16, slots.count * 2))
    }

    private mutating func rehash(into count: Int) {
        slots = []  // the old slots go before the new are made
        slots = [Int32](repeating: -1, count: count)
        let mask = slots.count - 1
        for (position, entry) in entries.enumerated() {
            var slot = entry.key.hashValue & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(position)
        }
    }
}

/// A head, or that there is none, in 32 bytes: the revisions and the fingerprint's hash
/// in words of their own, and in the last its size (48 bits), whether it has one, the
/// kind and the modifications since a whole value (at most 255 told apart: a whole value
/// is kept every `JournalHeads.keyframeInterval`).
private struct PackedHead: Sendable {
    private let revision: Int
    private let wholeAt: Int
    private let hash: UInt64
    private let bits: UInt64

    private static let none: UInt64 = 1 << 11
    private static let hasFingerprint: UInt64 = 1 << 10

    init(_ head: JournalHeads.Head?) {
        guard let head else {
            (revision, wholeAt, hash, bits) = (0, 0, 0, Self.none)
            return
        }
        (revision, wholeAt, hash) = (head.revision, head.wholeAt, head.fingerprint?.hash ?? 0)
        let kind: UInt64 =
            switch head.kind {
            case .created: 0
            case .modified: 1
            case .deleted: 2
            }
        var bits = UInt64(min(max(head.sinceKeyframe, 0), 255)) | kind << 8
        if let fingerprint = head.fingerprint {
            bits |= Self.hasFingerprint | UInt64(min(fingerprint.size, 1 << 48 - 1)) << 16
        }
        self.bits = bits
    }

    var head: JournalHeads.Head? {
        guard bits & Self.none == 0 else { return nil }
        let kind: HistoryEntry.Kind =
            switch bits >> 8 & 3 {
            case 0: .created
            case 1: .modified
            default: .deleted
            }
        let fingerprint =
            bits & Self.hasFingerprint == 0
            ? nil : Fingerprint(size: Int(bits >> 16), hash: hash)
        return JournalHeads.Head(
            revision: revision, kind: kind, fingerprint: fingerprint,
            sinceKeyframe: Int(bits & 0xFF), wholeAt: wholeAt)
    }
}
