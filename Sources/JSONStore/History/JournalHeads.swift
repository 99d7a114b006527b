/// What the journal last recorded of items: each one's newest entry's revision, kind and
/// fingerprint, and how many modifications since it last kept the whole value. A change is
/// recorded against its item's head: a file whose fingerprint is the head's is recorded
/// already, whoever recorded it.
///
/// A cache, kept current under the store's lock: what was appended since the last look is
/// read (`catchUp`), and an item not seen yet is looked up by its marker (`head(of:in:)`),
/// so a process that writes one item never parses the whole journal. `readAll` knows
/// every item, for a look at the whole store.
struct JournalHeads: Sendable {
    struct Head: Sendable, Hashable {
        var revision: Int
        var kind: HistoryEntry.Kind
        var fingerprint: Fingerprint?
        /// Modifications since the last entry that kept the whole value.
        var sinceKeyframe: Int
        /// The revision of the newest entry that kept the whole value; 0 when not known.
        var wholeAt: Int

        /// Whether the item existed after this entry.
        var exists: Bool { kind != .deleted }
    }

    /// After this many modifications without one, an entry keeps the whole value, so a
    /// version is rebuilt from at most this many patches.
    static let keyframeInterval = 16

    /// The heads known, by id; a `nil` head for an item the journal has no entry of.
    private var known = HeadTable()
    private(set) var journalID: String?
    /// Where the last look stopped, and the revision of the last entry before it.
    private(set) var position: Journal.Position?
    private(set) var lastRevision = 0
    /// Whether every item's head is known (after `readAll`).
    private(set) var isComplete = false
    /// The revision after which every entry's item is known here (0 after `readAll`): an
    /// item not known has had no entry since. What a start cache may add to them.
    private(set) var coveredAfter: Int?
    /// The newest entries taken in, oldest first (a bounded few): which items changed after
    /// a recent revision, without reading the journal again.
    private var recent: [(revision: Int, id: UTF8Key)] = []
    static let recentLimit = 1024
    /// The start cache written with every head, where an item not known here is looked up
    /// before the journal once the heads were let go (`forget`); used only while it holds
    /// (`indexed`).
    var index: StartCache.HeadIndex?

    /// The memory the heads take: their table (`MemoryUsage`).
    var footprint: Int {
        known.footprint + recent.capacity * MemoryLayout<(revision: Int, id: UTF8Key)>.stride
    }

    /// Where the journal ends as the last look found it: after its last whole line.
    struct End: Sendable {
        var position: Journal.Position
        var lastRevision: Int
        var journalID: String
    }

    var end: End? {
        guard let position, let journalID else { return nil }
        return End(position: position, lastRevision: lastRevision, journalID: journalID)
    }

    /// Reads what was appended since the last look; on the first look, or when the journal
    /// is another one than last time (removed and begun again), starts from its end
    /// knowing nothing.
    mutating func catchUp(_ journal: Journal) {
        guard let position else { return begin(journal) }
        let report = journal.read(JournalLine.Head.self, from: position) { apply($0) }
        guard report.journalID == journalID else { return begin(journal) }
        if let end = report.end { self.position = end }
    }

    private mutating func begin(_ journal: Journal) {
        self = JournalHeads()
        let end = journal.end()
        (position, lastRevision) = (end?.position, end?.lastRevision ?? 0)
        journalID = journal.journalID()
        coveredAfter = lastRevision
    }

    /// Every item with an entry after `revision` is known here now (a look compared them).
    mutating func cover(after revision: Int) {
        coveredAfter = min(coveredAfter ?? revision, revision)
    }

    /// The heads known, by id (a copy, for a start cache).
    var knownHeads: HeadTable { known }

    /// How many items' heads are known (an item with no entry counts too).
    var count: Int { known.count }

    /// Lets the heads go but those of the items with entries after `revision`, keeping
    /// where the journal was read to and its newest entries: a watcher of a million items
    /// would otherwise keep 56 MB of heads after its first look at the whole store, which
    /// needs them all once. An item's head is looked up again when it is needed
    /// (`head(of:in:)`, `readHeads`), exactly as a process that never looked at the whole
    /// store does; the next look at the whole store reads them all again (`readAll`).
    ///
    /// Every item with an entry after `revision` stays known (`coveredAfter`), so a start
    /// cache stamped there, written with every head, gives the others to the next one
    /// (`HeadsSince`). Nothing is let go (`false`) when the newest entries read do not
    /// reach back to `revision`.
    @discardableResult
    mutating func forget(keepingAfter revision: Int) -> Bool {
        guard revision <= lastRevision, let changed = ids(after: revision) else { return false }
        var kept = HeadTable()
        for key in changed { if let head = known[key] { kept.set(head, for: key) } }
        let place = (journalID, position, lastRevision, recent)
        self = JournalHeads()
        (journalID, position, lastRevision, recent) = place
        known = kept
        coveredAfter = revision
        return true
    }

    /// Lets go of the snapshot the heads were bound to (`readAll(_:boundTo:)`), keeping
    /// every head.
    mutating func unbind() { known = known.unbound() }

    /// Whether the heads are bound to a snapshot, which they keep from going.
    var isBound: Bool { known.isBound }

    /// The items of the entries after `revision` up to the last one read, when the recent
    /// entries reach back that far; `nil` when they do not (read the journal then).
    func ids(after revision: Int) -> Set<UTF8Key>? {
        if revision >= lastRevision { return [] }
        guard let first = recent.first, first.revision <= revision + 1 else { return nil }
        var ids: Set<UTF8Key> = []
        for entry in recent.reversed() {
            if entry.revision <= revision { break }
            ids.insert(entry.id)
        }
        return ids
    }

    /// The head of `id`: known, or looked up in the journal. Call it right after `catchUp`.
    mutating func head(of id: String, in journal: Journal) -> Head? {
        let key = UTF8Key(id)
        if let head = known[key] { return head }
        if isComplete { return nil }
        let head = indexed(id) ?? journal.head(of: id)
        known.set(head, for: key)
        return head
    }

    /// The head of `id` in the start cache `index`, if that cache holds for these heads:
    /// of this journal, at a revision after which every entry's item is known here
    /// (`coveredAfter`) and which these heads have read past. `nil` when not known there.
    private func indexed(_ id: String) -> Head?? {
        guard let index, let journalID, index.stamp.isOf(journalID),
            let covered = coveredAfter, covered <= index.stamp.revision,
            index.stamp.revision <= lastRevision
        else { return nil }
        return index.head(of: id)
    }

    /// The heads of `keys`, as `head(of:in:)` gives each: those known found on every core
    /// when there are at least `parallelAbove` (a start's thousands of changes), the others
    /// then looked up one by one.
    mutating func heads(
        of keys: [UTF8Key], in journal: Journal, parallelAbove threshold: Int
    ) -> [Head?] {
        let known = known.lookUp(keys.count, parallelAbove: threshold) { keys[$0] }
        return keys.indices.map { known[$0] ?? head(of: keys[$0].string, in: journal) }
    }

    /// Reads the whole journal, so every item's head is known: unless it is known already
    /// (an earlier `readAll`, kept current by `catchUp` and `appended` since; a journal
    /// begun again makes `catchUp` start over, incomplete). With `tree`, the snapshot a
    /// look at the whole store compares, its ids' heads are held by their rank there
    /// (`BoundHeads`): 8 bytes an item, not 56.
    mutating func readAll(_ journal: Journal, boundTo tree: SortedTree<UTF8Key, Entry>? = nil) {
        if isComplete, position != nil { return }
        self = JournalHeads()
        if let tree { known = HeadTable(boundTo: tree) }
        let report = journal.read(JournalLine.Head.self) { apply($0) }
        (journalID, position, isComplete) = (report.journalID, report.end, true)
        known.dropRemoved()
        coveredAfter = 0
        if let first = journal.segments().last?.first {
            lastRevision = max(lastRevision, first - 1)
        }
    }

    /// Finds the heads of `ids` with one read of the journal up to where the heads were
    /// caught up, instead of a lookup each: for many ids at once (what a start from its
    /// cache found changed). Call it right after `catchUp`; `head(of:in:)` then knows them.
    mutating func readHeads(of ids: Set<UTF8Key>, in journal: Journal) {
        guard !isComplete else { return }
        var unknown = ids.filter { known[$0] == nil }
        // A bisection of the cache each (about 70 small reads) while they are few; past
        // that, one read of the journal is cheaper.
        if unknown.count <= Self.indexedAtMost {
            for key in unknown {
                guard let head = indexed(key.string) else { continue }
                known.set(head, for: key)
                unknown.remove(key)
            }
        }
        takeIn(unknown, reading: journal)
    }

    /// The most heads `readHeads` looks up in the start cache one by one.
    static let indexedAtMost = 1024

    /// Takes in `recorded`, the heads a start cache kept as the journal had them at `base`,
    /// brought up to where these heads are with what the journal has after `base` (what was
    /// appended while nothing ran): the items a start found changed, with no lookup each.
    mutating func seed(
        _ recorded: [UTF8Key: Head?], from base: Journal.Position, in journal: Journal
    ) {
        let wanted = Set(recorded.keys.filter { known[$0] == nil })
        takeIn(wanted, startingFrom: recorded, reading: journal, from: base)
    }

    /// Takes in the heads of `wanted`, items not known, from `recorded` (their heads at
    /// `start`; none: found as `readAll` would) and the journal's entries of them from
    /// `start` (nil: the beginning) up to where these heads are.
    private mutating func takeIn(
        _ wanted: Set<UTF8Key>, startingFrom recorded: [UTF8Key: Head?] = [:],
        reading journal: Journal, from start: Journal.Position? = nil
    ) {
        guard !wanted.isEmpty, position != nil else { return }
        let end = lastRevision
        var found = JournalHeads()
        for key in wanted { if let head = recorded[key] { found.known.set(head, for: key) } }
        _ = journal.read(JournalLine.Head.self, from: start) { line in
            if line.revision <= end, wanted.contains(UTF8Key(line.id)) { found.apply(line) }
        }
        for key in wanted { known.set(found.known[key] ?? nil, for: key) }
    }

    /// The ids of the items that exist as the journal last recorded them (after `readAll`).
    var existing: [String] {
        known.compactMap { key, head in head?.exists == true ? key.string : nil }
    }

    /// Calls `body` with each item that exists as the journal last recorded it (after
    /// `readAll`) and that `tree` does not hold, and its head, in place: no array of them
    /// (16 MB at a million ids), and no lookup of the ids the heads are bound to when they
    /// are bound to `tree`.
    func forEachExisting(notIn tree: SortedTree<UTF8Key, Entry>, _ body: (UTF8Key, Head) -> Void) {
        known.forEach(notIn: tree) { key, head in
            if let head, head.exists { body(key, head) }
        }
    }

    /// Calls `body` with each element of `tree` and its head, once every head is known
    /// (after `readAll`): by rank when the heads are bound to `tree`.
    func forEachHead(in tree: SortedTree<UTF8Key, Entry>, _ body: (UTF8Key, Entry, Head?) -> Void) {
        precondition(isComplete, "every head is known")
        known.forEach(in: tree) { key, entry, head in body(key, entry, head ?? nil) }
    }

    /// Makes room for `count` more ids than are known, before a look takes them in.
    mutating func reserve(adding count: Int) { known.reserve(known.count + count) }

    /// Takes in entries this process appended at the end it had read to, the journal's end
    /// now being `end`.
    mutating func appended(_ entries: [HistoryEntry], journalID: String, end: Journal.Position) {
        guard self.journalID == journalID || self.journalID == nil else {
            return  // read afresh by the next catch-up
        }
        for entry in entries {
            apply(
                JournalLine.Head(
                    revision: entry.revision, id: entry.id, kind: entry.kind,
                    fingerprint: entry.fingerprint,
                    whole: entry.keepsWhole))
        }
        (self.journalID, position) = (journalID, end)
    }

    /// Takes in an entry, the newest of its item.
    mutating func apply(_ entry: JournalLine.Head) {
        let key = UTF8Key(entry.id)
        lastRevision = max(lastRevision, entry.revision)
        recent.append((entry.revision, key))
        if recent.count >= 2 * Self.recentLimit { recent.removeFirst(Self.recentLimit) }
        let keeps = entry.whole
        known.update(key) { old in
            // An item not looked up yet: how many patches since its last whole value is not
            // known, so the next entry keeps its whole value.
            let before = old.map { $0?.sinceKeyframe ?? 0 } ?? JournalHeads.keyframeInterval
            let wholeAt = keeps ? entry.revision : (old??.wholeAt ?? 0)
            return Head(
                revision: entry.revision, kind: entry.kind, fingerprint: entry.fingerprint,
                sinceKeyframe: keeps ? 0 : before + 1, wholeAt: wholeAt)
        }
    }
}
