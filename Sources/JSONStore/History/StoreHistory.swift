/// A directory store's history: its journal, and what this process knows of the journal's
/// heads, kept current under the store's lock.
final class StoreHistory: Sendable {
    let journal: Journal
    /// The store directory's path.
    let store: String
    /// How the store reads its files.
    let reader: JSONReader
    /// Who this process's writes are recorded as.
    let source: HistoryEntry.Source
    /// Whether a write syncs its entries itself, or leaves them to its directory's sync
    /// (`JSONStore.Options.historySyncsEachWrite`).
    let syncsEachWrite: Bool
    /// How many heads are kept past a look at the whole store (`JournalHeads.forget`).
    let headsKeptAtMost: Int
    /// Past how many items to record a look is told long (`recordUnrecorded`'s `whenLong`).
    let longLookAbove: Int
    /// Whether a look at every file takes the fingerprints of files unchanged since the
    /// start cache's look from it, rather than reading them (`Options.keepsStartCache`).
    let usesStartCache: Bool
    private let heads = Locked(JournalHeads())

    /// By default: 65,536 heads (3.5 MB) at most; a million take 56 MB, nearly half what
    /// the store's own bytes take.
    static let headsKeptAtMost = 65_536

    /// By default: 200,000 items, which a look drafts and appends in about 1.4 s on two
    /// cores, most of the 2 s a stream waits for its first version's stamp
    /// (`LiveEngine.stampWait`).
    static let longLookAbove = 200_000

    init(
        store: String, reader: JSONReader, source: HistoryEntry.Source, syncsEachWrite: Bool,
        segmentLimit: Int, retention: Journal.Retention,
        headsKeptAtMost: Int = StoreHistory.headsKeptAtMost,
        longLookAbove: Int = StoreHistory.longLookAbove, usesStartCache: Bool = true
    ) {
        journal = Journal(
            folder: PrivateFolder(store: store), segmentLimit: segmentLimit, retention: retention)
        self.store = store
        self.reader = reader
        self.source = source
        self.syncsEachWrite = syncsEachWrite
        self.headsKeptAtMost = headsKeptAtMost
        self.longLookAbove = longLookAbove
        self.usesStartCache = usesStartCache
    }

    /// Runs `body` with the heads brought up to the journal's end. Call it holding the
    /// store's lock, so no other process appends meanwhile.
    func withCurrentHeads<R>(_ body: (inout JournalHeads) throws(StoreError) -> R)
        throws(StoreError) -> R
    {
        try heads.withLock { heads in
            heads.catchUp(journal)
            return Result { () throws(StoreError) in try body(&heads) }
        }.get()
    }

    /// Runs `body` with the heads as they are, not caught up first: for a holder of the
    /// store's lock that has just caught them up (nobody else appends meanwhile).
    func withHeads<R>(_ body: (inout JournalHeads) throws(StoreError) -> R) throws(StoreError)
        -> R
    {
        try heads.withLock { heads in
            Result { () throws(StoreError) in try body(&heads) }
        }.get()
    }

    /// Runs `body` with the store directory open and its lock held: where the journal is
    /// appended to.
    func withStoreLock<R>(_ body: (FileDescriptor) throws(StoreError) -> R) throws(StoreError)
        -> R
    {
        let dir: FileDescriptor
        do {
            dir = try FileDescriptor.openDirectory(store)
        } catch {
            throw StoreError.system(error, "could not open the store directory", file: store)
        }
        defer { dir.close() }
        let lock = try StoreLock.acquire(in: dir, store: store)
        defer { lock.close() }
        return try body(dir)
    }

    /// Takes in entries this process appended.
    func appended(_ entries: [HistoryEntry], by appender: JournalAppender) {
        heads.withLock { heads in
            heads.appended(entries, journalID: appender.journalID, end: appender.end)
        }
    }

    /// The item `id` as the journal last recorded it.
    func recordedValue(of id: String) -> JSONObject? {
        journal.lastValue(of: id)
    }

    /// A new operation's token: 64 random bits in hexadecimal.
    static func newOperation() -> String {
        var random = SystemRandomNumberGenerator()
        let hex = String(random.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
