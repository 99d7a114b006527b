import Dispatch

/// What a watcher saw: the names to look at, coalesced.
///
/// Events are hints. The store decides what changed by looking at the files, never by
/// counting events or pairing rename cookies.
struct WatchBatch: Sendable {
    /// Names whose writer is done (closed, renamed into place, removed): read them now.
    var readNow: Set<String> = []
    /// Names created or modified with no close seen yet: read after a short delay, unless
    /// a close comes first.
    var readLater: Set<String> = []
    /// Names that are not UTF-8, shown repaired: reported as invalid files.
    var undecodable: Set<String> = []
    /// The kernel dropped events: only a full rescan can tell what changed.
    var overflow = false
    /// The watched directory was removed or moved away.
    var directoryGone = false

    var isEmpty: Bool {
        readNow.isEmpty && readLater.isEmpty && undecodable.isEmpty && !overflow && !directoryGone
    }
}

/// How the store learns that files changed.
///
/// A watcher calls its handler on the store's pipeline queue, which owns all the state it
/// touches; `start`, `suspend`, `resume` and `stop` are called on that queue too.
protocol DirectoryWatcher: AnyObject {
    func start()
    /// Handles what has happened so far now, without waiting for the next wake-up.
    func pollNow()
    func suspend()
    func resume()
    func stop()
}

/// How a store watches its directory.
public enum WatchMode: Sendable, Equatable {
    /// Linux inotify: every edit is seen at once, with no polling.
    case inotify
    /// Compare directory listings and file signatures every `interval` seconds, for network
    /// file systems (NFS, SMB, FUSE) where inotify does not see other machines' writes.
    case polling(interval: Double)
}
