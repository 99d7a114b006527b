/// What a directory's pipeline knows of the start cache (issue 28): what its start took
/// from the cache, and when it writes the next one.
struct StartCachePlan: Sendable {
    /// When the load began, as the store's file system stamped it; `nil` when no cache is
    /// kept (the private folder cannot be written, or the store is not a directory).
    var loadLook: Int64?
    /// Where the cache the load began from agrees with the journal, and the ids that
    /// differ from it (read again, new or gone), for the history's recorder; cleared once
    /// a version is stamped.
    var base: StoreHistory.StampBase?
    var changed: Set<UTF8Key> = []
    /// The cache's items of the changed ids it held: what the journal recorded of them at
    /// `base`, so the recorder finds the changes without looking each one up.
    var previous: [UTF8Key: Item] = [:]
    /// The journal's heads of those ids at `base`, as the cache kept them.
    var heads: [UTF8Key: JournalHeads.Head?] = [:]
    /// The ids whose files the start read rather than take from the cache; given to the
    /// first writer, then let go (if it writes nothing, the next writer carries the old
    /// signatures of those that did not change: they are read again at the next start).
    var readAtStart: Set<UTF8Key> = []
    /// When the start began (`LiveEngine.now`), and whether it began from a cache (until
    /// its first cache is written, which then waits).
    var began = 0.0
    var fromCache = false
    /// How many files the start took from the cache and how many it read.
    var taken = 0
    var read = 0
    /// A cache is being written; the version last written, and when (`LiveEngine.now`).
    var writing = false
    var writtenVersion = 0
    var writtenAt = -Double.infinity

    /// How long after one cache another may be written, while the store changes.
    static let interval = 60.0
}
