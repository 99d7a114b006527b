/// What a watcher saw: the names to look at, coalesced, each by its bytes.
///
/// Events are hints. The store decides what changed by looking at the files, never by
/// counting events or pairing rename cookies.
struct WatchBatch: Sendable {
    /// Names whose writer is done (closed, renamed into place, removed): read them now.
    var readNow: Set<UTF8Key> = []
    /// Names created or modified with no close seen yet: read after a short delay, unless
    /// a close comes first.
    var readLater: Set<UTF8Key> = []
    /// Names that are not UTF-8, shown repaired: reported as invalid files.
    var undecodable: Set<UTF8Key> = []
    /// The kernel dropped events: only a full rescan can tell what changed.
    var overflow = false
    /// Reading the events failed: only a full rescan can tell what changed.
    var readError: Errno?
    /// The watched directory was removed or moved away.
    var directoryGone = false
    /// The watched directory's own attributes changed (a `chmod`): check it can still be
    /// read.
    var directoryChanged = false
    /// The store's schema document (`.jsonstore/schema.json`) may have changed: read it
    /// again.
    var schemaChanged = false

    var isEmpty: Bool {
        readNow.isEmpty && readLater.isEmpty && undecodable.isEmpty && !overflow && readError == nil
            && !directoryGone && !directoryChanged && !schemaChanged
    }
}
