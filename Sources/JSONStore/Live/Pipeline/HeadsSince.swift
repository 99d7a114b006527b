/// The journal's head of each id at a stamp, for the start cache written of it: the heads
/// the recorder knew then, and for the others, which have had no entry since the revision
/// after which the recorder knows every entry's item, the head the last cache kept, when
/// that cache is of this journal at that revision or later.
struct HeadsSince {
    private let heads: StoreHistory.StampHeads?
    /// The last cache's entries, when their heads hold at the stamp.
    private let cached: StartCache.Cursor?

    /// - Parameter last: the last cache written, if any, read forward.
    init(heads: StoreHistory.StampHeads?, base: StoreHistory.StampBase?, last: StartCache.Cursor?) {
        self.heads = heads
        guard let heads, let covered = heads.coveredAfter, covered > 0, let base,
            let last, let stamp = last.header.stamp,
            stamp.journal == base.stamp.journal, stamp.revision >= covered
        else {
            cached = nil
            return
        }
        cached = last
    }

    /// Whether every id the journal has an entry of has its head here: the recorder read
    /// the whole journal, or knows every entry since a cache that was complete.
    var isComplete: Bool {
        guard let covered = heads?.coveredAfter else { return false }
        return covered == 0 || cached?.header.headsComplete == true
    }

    /// The head of `key`, whose entry in the last cache is at `k`, if it has one.
    func head(of key: UTF8Key, lastAt k: Int?) -> StartCache.Head {
        guard let heads else { return .unknown }
        if let known = heads.known[key] { return StartCache.Head(.some(known)) }
        if heads.coveredAfter == 0 { return .none }  // every item the journal has is known
        guard let cached, let k else { return .unknown }
        return cached.head(at: k)
    }

    /// The id and head of the last cache's entry `k`, whose id has no item now, when the
    /// journal has a head of it that the recorder does not know (deleted, or invalid, since
    /// before the stamp).
    func carried(_ k: Int) -> (id: String, head: StartCache.Head)? {
        guard let cached else { return nil }
        let head = cached.head(at: k)
        guard head != .unknown else { return nil }
        let id = cached.id(at: k)
        return heads?.known[UTF8Key(id)] == nil ? (id, head) : nil
    }

    /// The ids the recorder knows a head of that `snapshot` has no item of (deleted, or
    /// invalid since they appeared), sorted by their bytes, with their heads.
    func known(notIn snapshot: StoreSnapshot) -> [(id: String, head: StartCache.Head)] {
        guard let heads else { return [] }
        var known: [(id: String, head: StartCache.Head)] = []
        heads.known.forEach(notIn: snapshot.entries) { key, head in
            known.append((key.string, StartCache.Head(.some(head))))
        }
        return known.sorted { UTF8Key.less($0.id, $1.id) }
    }
}
