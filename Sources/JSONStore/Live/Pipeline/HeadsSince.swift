/// The journal's head of each id at a stamp, for the start cache written of it: the heads
/// the recorder knew then, and for the others, which have had no entry since the revision
/// after which the recorder knows every entry's item, the head the last cache kept, when
/// that cache is of this journal at that revision or later.
struct HeadsSince {
    private let heads: StoreHistory.StampHeads?
    private let cache: StartCache?
    private var k = 0

    /// - Parameter cache: reads the last cache; called only when the heads leave some ids
    ///   to it (not after a whole look at the journal).
    init(
        heads: StoreHistory.StampHeads?, base: StoreHistory.StampBase?,
        cache readCache: () -> StartCache?
    ) {
        self.heads = heads
        guard let heads, let covered = heads.coveredAfter, covered > 0, let base,
            let cache = readCache(), let stamp = cache.stamp,
            stamp.journal == base.stamp.journal, stamp.revision >= covered
        else {
            self.cache = nil
            return
        }
        self.cache = cache
    }

    /// Whether every id the journal has an entry of has its head here: the recorder read
    /// the whole journal, or knows every entry since a cache that was complete.
    var isComplete: Bool {
        guard let covered = heads?.coveredAfter else { return false }
        return covered == 0 || cache?.headsComplete == true
    }

    /// The head of `key`. Ids are asked in the order of their bytes.
    mutating func head(of key: UTF8Key) -> StartCache.Head {
        guard let heads else { return .unknown }
        if let known = heads.known[key] { return StartCache.Head(.some(known)) }
        if heads.coveredAfter == 0 { return .none }  // every item the journal has is known
        guard let entries = cache?.entries else { return .unknown }
        var order = 1
        while k < entries.count {
            order = entries.compare(k, key.string)
            if order >= 0 { break }
            k += 1
        }
        return order == 0 ? entries.head(at: k) : .unknown
    }

    /// The ids with a head in the journal that `snapshot` has no item of (deleted, or
    /// invalid since they appeared), sorted by their bytes, with their heads.
    func others(notIn snapshot: StoreSnapshot) -> [(id: String, head: StartCache.Head)] {
        guard let heads else { return [] }
        var others: [(id: String, head: StartCache.Head)] = []
        for (key, head) in heads.known where snapshot.entries[key] == nil {
            others.append((key.string, StartCache.Head(.some(head))))
        }
        if let entries = cache?.entries {
            for k in entries.indices {
                let head = entries.head(at: k)
                guard head != .unknown else { continue }
                let key = UTF8Key(entries.id(at: k))
                if snapshot.entries[key] == nil && heads.known[key] == nil {
                    others.append((key.string, head))
                }
            }
        }
        return others.sorted { UTF8Key.less($0.id, $1.id) }
    }
}
