import Dispatch

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

    var isEmpty: Bool {
        readNow.isEmpty && readLater.isEmpty && undecodable.isEmpty && !overflow && readError == nil
            && !directoryGone && !directoryChanged
    }
}

/// How the store learns that files changed.
///
/// A watcher calls its handler on the store's pipeline queue, which owns all the state it
/// touches; its methods are called on that queue too.
protocol DirectoryWatcher: AnyObject {
    /// The dispatch source that wakes the watcher.
    var control: SourceControl { get }
    /// Handles what has happened so far now, without waiting for the next wake-up.
    func pollNow()
}

extension DirectoryWatcher {
    func start() { control.start() }
    func suspend() { control.suspend() }
    func resume() { control.resume() }
    func stop() { control.stop() }
}

/// Starting, stalling and stopping a dispatch source: suspensions must be balanced, and a
/// suspended source must be resumed before its cancel handler can run.
final class SourceControl {
    private let source: any DispatchSourceProtocol
    private var suspended = false
    private var stopped = false

    init(_ source: any DispatchSourceProtocol) {
        self.source = source
    }

    /// Whether the source delivers events now.
    var isRunning: Bool { !suspended && !stopped }

    func start() { source.resume() }

    func suspend() {
        guard isRunning else { return }
        suspended = true
        source.suspend()
    }

    func resume() {
        guard suspended, !stopped else { return }
        suspended = false
        source.resume()
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        source.cancel()
        if suspended { source.resume() }
    }
}

/// How a store watches its directory.
public enum WatchMode: Sendable, Equatable {
    /// Linux inotify: every edit is seen at once, with no polling.
    case inotify
    /// Compare directory listings and file signatures every `interval` seconds, for network
    /// file systems (NFS, SMB, FUSE) where inotify does not see other machines' writes.
    case polling(interval: Double)
    /// inotify, or polling every `interval` seconds when inotify's limits are reached
    /// (`fs.inotify.max_user_instances`, `max_user_watches`, the descriptor limit).
    case inotifyOrPolling(interval: Double)
}
