/// What feeds the live pipeline when the store is not a directory: a source that carries
/// the values themselves (etcd's range and watch), behind the seam where the directory's
/// watcher and file reads feed the same `StoreReducer`.
///
/// A source reports on a thread of its own, one report at a time and in order, and waits
/// while the pipeline takes each (on the source's thread when the pipeline is idle: no
/// hand-off between threads on the way from etcd to the observers). So a source never
/// reports from the pipeline, nor holds anything the pipeline waits for while it
/// reports. Its invariants, which the engine relies on:
/// - the first report that carries items is a `.listing` of the whole store, at one
///   revision; every `.changes` after it is relative to what was reported before it;
/// - one `.changes` is one atomic change of the store (an etcd transaction), published as
///   one update;
/// - after `.interrupted`, either nothing was missed (`.resumed`, then changes) or the
///   source relists (`.listing` with a reason), so observers converge either way;
/// - `.caughtUp` answers `catchUp()` only after every change made before that call has
///   been reported.
package protocol LiveSource: AnyObject, Sendable {
    /// Starts reading: lists the store, then follows it. Called once, on the pipeline.
    func start()
    /// Stops, and reports nothing more. Called once, on the pipeline.
    func stop()
    /// Asks for a `.caughtUp` report once every change made before this call has been
    /// reported (read-your-writes for `JSONStore.synchronize`).
    func catchUp()
    /// Test hook: stops reading changes (and disconnects) until resumed, so that changes
    /// can pile up, or be compacted away, behind the source's back.
    func setSuspended(_ suspended: Bool)
}

/// What a `LiveSource` tells the pipeline.
package enum SourceReport: Sendable {
    /// The whole store: the first load, or a relist after changes could not be resumed
    /// (the reason is then what observers see while it lasts).
    case listing(SourceListing, reason: String?)
    /// One atomic change of the store.
    case changes(SourceChanges)
    /// Nothing changed in the store up to this revision (etcd's progress notifications,
    /// or the source's own quiet-time check): a fresh revision for bookmarks.
    case progress(revision: Int64)
    /// The source lost its connection and is getting it back.
    case interrupted(reason: String)
    /// The connection is back and nothing was missed.
    case resumed
    /// Every change made before the last `catchUp()` has been reported.
    case caughtUp
    /// The store cannot be read (refused credentials, a store that is gone).
    case failed(StoreError)
}

/// The whole store, as a source read it at one moment: ids in byte order, each with what
/// it holds, and the names that give no valid id.
package struct SourceListing: Sendable {
    package var ids: [String]
    package var outcomes: [ItemFile.Outcome]
    package var badNames: [UTF8Key: InvalidFile]
    /// The store's revision the listing was read at.
    package var revision: Int64
    /// For an invalid outcome, by its position: the item's last valid value before the
    /// revision, which a follower then kept (filled in by a listing to resume from).
    package var lastValid: [Int: Item]
    /// The store's schema document at the revision (`nil`: none), which the pipeline
    /// checks the items with; a source relists when it changes.
    package var schemaDocument: [UInt8]?

    package init(
        ids: [String], outcomes: [ItemFile.Outcome], badNames: [UTF8Key: InvalidFile],
        revision: Int64, lastValid: [Int: Item] = [:]
    ) {
        self.ids = ids
        self.outcomes = outcomes
        self.badNames = badNames
        self.revision = revision
        self.lastValid = lastValid
    }
}

/// One atomic change of the store: items with what they hold now (`.missing`: deleted),
/// and names that give no valid id which appeared (with why) or went (`nil`).
package struct SourceChanges: Sendable {
    package var items: [(id: String, outcome: ItemFile.Outcome)] = []
    package var badNames: [(name: String, file: InvalidFile?)] = []
    /// The store's revision of the change.
    package var revision: Int64

    package init(revision: Int64) { self.revision = revision }

    package var isEmpty: Bool { items.isEmpty && badNames.isEmpty }
}
