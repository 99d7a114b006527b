import Dispatch
import Glibc

/// Watches a directory with inotify, draining every queued event into one batch.
///
/// Owned by the pipeline (`LiveEngine`), which alone calls its methods; its dispatch
/// source fires on the pipeline queue and touches only the inotify descriptor.
final class InotifyWatcher: DirectoryWatcher {
    /// The events asked for, on the directory (not the files).
    static let mask: Int32 =
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE
        | IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW
        | IN_EXCL_UNLINK

    /// The events asked for on the store's private folder (`.jsonstore/`), where its
    /// schema is: a file of it replaced, written or removed, or the folder gone.
    static let privateMask: Int32 =
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF
        | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK

    private let inotify: Inotify
    let control: SourceControl
    private let handler: @Sendable (WatchBatch) -> Void
    private let watches: Watches

    /// The watches of one watcher: the store directory's, and its private folder's while
    /// there is one (watched again each time a folder of that name comes).
    final class Watches: Sendable {
        let path: String
        let store: Int32
        private let folder = Locked<Int32?>(nil)

        init(path: String, store: Int32) {
            self.path = path
            self.store = store
        }

        var privateFolder: Int32? { folder.withLock { $0 } }

        /// Watches the private folder, if there is one now.
        func watchPrivateFolder(of inotify: Inotify) {
            let watch = try? inotify.addWatch(
                join(path, PrivateFolder.name), mask: InotifyWatcher.privateMask)
            folder.withLock { $0 = watch }
        }
    }

    /// Starts watching `path`; `handler` receives each batch on `queue`.
    init(path: String, queue: DispatchQueue, handler: @escaping @Sendable (WatchBatch) -> Void)
        throws(InotifySetupError)
    {
        do {
            inotify = try Inotify.make()
        } catch {
            throw .instance(error)
        }
        do {
            watches = Watches(path: path, store: try inotify.addWatch(path, mask: Self.mask))
        } catch {
            inotify.descriptor.close()
            throw .watch(error)
        }
        watches.watchPrivateFolder(of: inotify)
        self.handler = handler
        let source = DispatchSource.makeReadSource(
            fileDescriptor: inotify.descriptor.rawValue, queue: queue)
        let (inotify, watches) = (self.inotify, self.watches)
        source.setEventHandler { Self.drain(inotify, watches, into: handler) }
        source.setCancelHandler { inotify.descriptor.close() }
        control = SourceControl(source)
    }

    static func drain(_ inotify: Inotify, _ watches: Watches, into handler: (WatchBatch) -> Void) {
        var batch: WatchBatch
        do {
            let events = try inotify.drain()
            batch = coalesce(
                events.filter { $0.watch == watches.store || $0.has(IN_Q_OVERFLOW) })
            let folder = watches.privateFolder
            if privateFolderCame(in: events, store: watches.store) {
                watches.watchPrivateFolder(of: inotify)
                batch.schemaChanged = true
            }
            if let folder, schemaChanged(events.filter { $0.watch == folder }) {
                batch.schemaChanged = true
            }
        } catch {
            batch = WatchBatch()
            batch.readError = error  // rescan rather than guess, and say why
        }
        if !batch.isEmpty { handler(batch) }
    }

    func pollNow() {
        guard control.isRunning else { return }
        Self.drain(inotify, watches, into: handler)
    }

    /// Whether the store directory's `events` say a private folder came or went: it is
    /// watched again (when it went, its schema is gone with it).
    static func privateFolderCame(in events: [Inotify.Event], store: Int32) -> Bool {
        events.contains { event in
            event.watch == store && event.has(IN_ISDIR)
                && event.name == .text(PrivateFolder.name)
        }
    }

    /// Whether the private folder's `events` may have changed the schema: its file
    /// written, replaced or removed, or the folder itself gone.
    static func schemaChanged(_ events: [Inotify.Event]) -> Bool {
        events.contains { event in
            event.has(IN_IGNORED) || event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF)
                || event.name == .text(StoreSchema.fileName)
        }
    }

    /// Turns events into names to read now or later.
    ///
    /// The last event of a name decides: a close, a rename or a removal means its writer
    /// is done, so read it now; a creation or modification after that means a writer is
    /// at work, so wait for its close (or the fallback delay). A change of attributes
    /// alone (touch, chmod) is read now, unless a writer is at work.
    static func coalesce(_ events: [Inotify.Event]) -> WatchBatch {
        var batch = WatchBatch()
        var writing: [UTF8Key: Bool] = [:]
        for event in events {
            if event.has(IN_Q_OVERFLOW) { batch.overflow = true }
            if event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_IGNORED) {
                batch.directoryGone = true
            }
            switch event.name {
            case nil:
                if event.has(IN_ATTRIB) { batch.directoryChanged = true }
                continue
            case .notUTF8(let bytes):
                batch.undecodable.insert(UTF8Key(Display.bytes(bytes)))
            case .text(let text):
                let name = UTF8Key(text)
                if event.has(IN_CLOSE_WRITE) || event.has(IN_MOVED_TO) || event.has(IN_MOVED_FROM)
                    || event.has(IN_DELETE) || event.has(IN_ISDIR)
                {
                    writing[name] = false
                } else if event.has(IN_CREATE) || event.has(IN_MODIFY) {
                    writing[name] = true
                } else if event.has(IN_ATTRIB) && writing[name] == nil {
                    writing[name] = false
                }
            }
        }
        for (name, inProgress) in writing {
            if inProgress { batch.readLater.insert(name) } else { batch.readNow.insert(name) }
        }
        return batch
    }
}
