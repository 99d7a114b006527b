/// The heads `JournalHeads` knows, by id, in about 56 bytes an id; in 8 those of the ids of
/// a snapshot it is bound to (`BoundHeads`).
///
/// A dictionary of `Head?` took 80 bytes a bucket and, at a million ids, two million
/// buckets: 160 MiB beside a store of 135 (issue 28). Here each head is packed in 32 bytes
/// beside its id, the entries sit side by side in the order they were first known, and a
/// table of 32-bit positions, at most half full, finds them by the id's hash.
struct HeadTable: Sendable {
    private struct Held: Sendable {
        let key: UTF8Key
        var head: PackedHead
    }

    private var entries: [Held] = []
    /// Positions in `entries` by the id's hash, probed linearly; -1 for none. Its count is
    /// a power of two, at least twice the entries'.
    private var slots: [Int32] = []
    /// How many entries are marked removed (`PackedHead.removed`): their ids' heads moved
    /// to `bound`. They keep their place (and slot) until the entries are made again.
    private var removedCount = 0
    /// The heads of the ids of the tree the table is bound to, those that fit there. An id
    /// of that tree is held there or in the entries, never both: a head that does not fit
    /// moves to the entries, and back when the next one fits (an item's first version,
    /// read from the journal before its last, is not the snapshot's).
    private var bound: BoundHeads?

    init() {}

    /// A table that holds the heads of `tree`'s ids by their rank there, for a look at a
    /// whole store whose snapshot that is.
    init(boundTo tree: SortedTree<UTF8Key, Entry>) {
        bound = BoundHeads(tree)
    }

    /// The number of ids known.
    var count: Int { entries.count - removedCount + (bound?.count ?? 0) }

    /// Whether the table is bound to a snapshot (`init(boundTo:)`).
    var isBound: Bool { bound != nil }

    /// The same heads, the bound ones in entries of their own and the tree let go: a
    /// table kept on after its look must not keep that snapshot's nodes, and the items'
    /// bytes they hold, from going.
    func unbound() -> HeadTable {
        guard let bound else { return self }
        var table = self
        table.bound = nil
        table.reserve(entries.count + bound.count)
        bound.forEach { key, head in table.setEntry(head, for: key) }
        return table
    }

    /// The head known of `key`: `nil` when not known, `.some(nil)` when the journal was
    /// found to have no entry of it.
    subscript(key: UTF8Key) -> JournalHeads.Head?? {
        if let bound, bound.count > 0, let (rank, fingerprint) = bound.place(of: key),
            let head = bound.head(at: rank, fingerprint: fingerprint)
        {
            return head
        }
        return entryHead(of: key)
    }

    /// The head of `key` among the entries (not the bound ids), as the subscript gives it.
    private func entryHead(of key: UTF8Key) -> JournalHeads.Head?? {
        guard let slot = slot(of: key).found else { return nil }
        let held = entries[Int(slots[slot])].head
        return held.isRemoved ? nil : .some(held.head)
    }

    /// Calls `body` with each element of `tree` and its head as the subscript gives it,
    /// in key order: by rank, with no lookup, when the table is bound to that tree.
    func forEach(
        in tree: SortedTree<UTF8Key, Entry>, _ body: (UTF8Key, Entry, JournalHeads.Head??) -> Void
    ) {
        guard let bound, bound.tree.isSame(as: tree) else {
            return tree.forEach { key, entry in body(key, entry, self[key]) }
        }
        var rank = 0
        tree.forEach { key, entry in
            defer { rank += 1 }
            if let head = bound.head(at: rank, fingerprint: entry.fingerprint) {
                body(key, entry, head)
            } else {
                body(key, entry, entryHead(of: key))
            }
        }
    }

    /// Calls `body` with each id known that `tree` does not hold, and its head: with no
    /// lookup of the bound ids when the table is bound to that tree.
    func forEach(
        notIn tree: SortedTree<UTF8Key, Entry>, _ body: (UTF8Key, JournalHeads.Head?) -> Void
    ) {
        for entry in entries where !entry.head.isRemoved && tree[entry.key] == nil {
            body(entry.key, entry.head.head)
        }
        guard let bound, !bound.tree.isSame(as: tree) else { return }
        bound.forEach { key, head in if tree[key] == nil { body(key, head) } }
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
        if let place = bound?.place(of: key) {
            set(head, for: key, at: place)
        } else {
            setEntry(head, for: key)
        }
    }

    /// Knows the head `body` makes of the one known of `key` (as the subscript gives it):
    /// one lookup where the subscript and `set` take one each.
    mutating func update(
        _ key: UTF8Key, _ body: (JournalHeads.Head??) -> JournalHeads.Head?
    ) {
        if let place = bound?.place(of: key) {
            let held = bound!.head(at: place.rank, fingerprint: place.fingerprint)
            set(body(held ?? entryHead(of: key)), for: key, at: place)
        } else {
            setEntry(body(entryHead(of: key)), for: key)
        }
    }

    /// Knows `head` of `key`, an id of the bound tree at `place`: held there when it fits
    /// (its entry, if it had one, marked removed), else among the entries.
    private mutating func set(
        _ head: JournalHeads.Head?, for key: UTF8Key,
        at place: (rank: Int, fingerprint: Fingerprint?)
    ) {
        guard bound!.set(head, at: place.rank, fingerprint: place.fingerprint) else {
            return setEntry(head, for: key)
        }
        if let found = slot(of: key).found, !entries[Int(slots[found])].head.isRemoved {
            entries[Int(slots[found])].head = .removed
            removedCount += 1
        }
    }

    private mutating func setEntry(_ head: JournalHeads.Head?, for key: UTF8Key) {
        var (found, empty) = slot(of: key)
        if let found {
            if entries[Int(slots[found])].head.isRemoved { removedCount -= 1 }
            entries[Int(slots[found])].head = PackedHead(head)
            return
        }
        // Grown before an insertion only: an update of a known id takes no room.
        if (entries.count + 1) * 2 > slots.count {
            grow()
            empty = slot(of: key).empty
        }
        slots[empty] = Int32(entries.count)
        entries.append(Held(key: key, head: PackedHead(head)))
    }

    /// Makes room for `count` ids in all, so a table about to take in many (a first look
    /// at a whole store) is made once at its size, not grown by doubling, which holds the
    /// old entries and slots beside new ones twice their size.
    /// Bound, it makes none: the look's ids are the tree's.
    mutating func reserve(_ count: Int) {
        guard bound == nil, count > entries.capacity else { return }
        // Never less than doubling: a few more at a time must not copy the table each time.
        entries.reserveCapacity(max(count, entries.capacity * 2))
        let slotCount = Self.slotCount(for: count, atLeast: slots.count)
        if slotCount > slots.count { rehash(into: slotCount) }
    }

    /// The slots for `count` entries: a power of two, at least twice as many, 16 at least.
    private static func slotCount(for count: Int, atLeast least: Int = 16) -> Int {
        var slotCount = max(16, least)
        while count * 2 > slotCount { slotCount *= 2 }
        return slotCount
    }

    /// Lets go of the room of the entries marked removed, the entries made again at their
    /// size: after a whole journal read bound to a snapshot, where an item's older versions
    /// were held with their keys until its last one, the snapshot's, moved to its rank.
    mutating func dropRemoved() {
        guard removedCount > 0 else { return }
        // A new array at the kept ones' size (removing in place would keep the room).
        entries = entries.filter { !$0.head.isRemoved }
        removedCount = 0
        rehash(into: Self.slotCount(for: entries.count))
    }

    /// Calls `body` with every id known and its head: the entries in the order they became
    /// known, then the bound ids in key order.
    func forEach(_ body: (UTF8Key, JournalHeads.Head?) throws -> Void) rethrows {
        for entry in entries where !entry.head.isRemoved { try body(entry.key, entry.head.head) }
        try bound?.forEach(body)
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
        entries.capacity * MemoryLayout<Held>.stride + slots.capacity * 4
            + (bound?.footprint ?? 0)
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
        if removedCount > 0 {
            entries.removeAll { $0.head.isRemoved }
            removedCount = 0
        }
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
