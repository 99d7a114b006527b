import Synchronization

/// A store: JSON items, one per file in a directory, or one per key under an etcd prefix.
///
/// In a directory (`init(directory:options:)`), items live in `<id>.json` files that
/// people edit by hand and programs edit through this type. Every write is atomic (a
/// reader sees the old file or the new one) and every read-modify-write holds the store's
/// lock, so concurrent processes lose no update. On etcd (`JSONStoreEtcd`'s
/// `init(etcd:prefix:…)`), the item `tea` is the key `PREFIX/tea`, a batch is one
/// transaction and a read-modify-write is compare-and-swap; everything else is the same.
///
/// A store is safe to use from any thread. The directory, or etcd, is the one source of
/// truth: the value keeps its configuration and, once something observes it, the live
/// pipeline (`LiveEngine`) that follows it; reads and writes always go to the store.
///
/// For example:
///
/// ```swift
/// struct Todo: Codable { var id: String; var title: String; var done = false }
///
/// let store = try JSONStore(directory: "data")
/// try store.put(Todo(id: "tea", title: "Make tea"))
/// try store.update("tea", as: Todo.self) { $0.done = true }
/// for item in try store.load().items { print(item.id, item["title"] ?? "") }
/// ```
public final class JSONStore: Sendable {
    /// How a store reads and writes.
    public struct Options: Sendable {
        /// The largest item file read, in bytes; larger files are reported, not read.
        public var maxFileSize: Int = 16 << 20
        /// The deepest nesting of arrays and objects accepted in an item file.
        public var maxDepth: Int = 512
        /// Our temp files older than this many seconds are left by crashed writers and
        /// are removed by the first write of this `JSONStore` value (reads never list the
        /// directory for them).
        public var staleTemporaryFileAge: Double = 60
        /// Create the directory (not its parents) when it does not exist.
        public var createDirectory = false
        /// Files read one by one below this count; above it, loading uses every core.
        public var parallelLoadThreshold = 64
        /// How observers learn of edits: inotify, or polling where inotify misses other
        /// machines' writes (the default, `.automatic`), or as you choose.
        public var watchMode = WatchMode.automatic(interval: 1)
        /// How long a file must stay missing, in seconds, before observers are told it was
        /// deleted. Editors (vim, emacs) and git save by removing or renaming the old file
        /// and writing a new one; within this window that is one modification.
        public var deletionGracePeriod: Double = 0.05
        /// How long to wait, in seconds, before reading a file that was created or changed
        /// but not closed (a hard link, a writer that keeps the file open).
        public var unclosedFileDelay: Double = 0.2
        /// How often to look for the store directory again after it was removed, in seconds.
        public var reattachInterval: Double = 0.2
        /// How long publications wait for git's index lock at most, in seconds; a lock
        /// older than this when first seen is not waited for. Not public: tests shorten or
        /// lengthen it.
        var gitHoldLimit: Double = 60
        /// Called by a batch with each id it is about to replace or remove, after its new
        /// files are staged and before they are checked and renamed: tests make a writer
        /// that takes no lock land exactly there. Not public.
        var beforeReplacing: (@Sendable (String) -> Void)? = nil
        /// Whether a directory store keeps the history of its changes in its journal
        /// (`.jsonstore/journal/`): every change by any program, for `history(of:)` and
        /// `jsonstore log`.
        public var keepsHistory = true
        /// Whether a directory store's observers keep a start cache (`.jsonstore/start`):
        /// what the files held when they last looked, so that the next start reads only
        /// the files changed since. Written in the background by observers, never by a
        /// one-shot read or a write.
        public var keepsStartCache = true
        /// How long the history keeps a change, in seconds (90 days): older ones are
        /// pruned, a file of them (4 MiB) at a time, oldest first.
        public var historyMaxAge: Double = 90 * 86_400
        /// How large the history may grow, in bytes (64 MiB): beyond it the oldest changes
        /// are pruned, a file of them at a time.
        public var historyMaxBytes = 64 << 20
        /// Whether each write waits for its history to reach the disk with a sync of its
        /// own. By default (`false`) a write's history is in the journal before the write
        /// returns, for every process to read, and its writing to the disk is begun; the
        /// file system commits it within seconds (ext4: 5 s at most), as SQLite's
        /// `synchronous = NORMAL` leaves its log: a killed process loses none of it; a power
        /// cut or a kernel crash may lose the newest changes' history (never an item, which
        /// is synced before the write returns), and the next reader records those changes
        /// back as seen late. `true` adds an `fdatasync` to every write.
        public var historySyncsEachWrite = false
        /// The name this program's writes are recorded under in the history
        /// (`HistoryEntry.Source.jsonstore(command:)`); by default the program's own.
        public var writerName =
            CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
        /// The source of this program's writes in the history, when it is not a jsonstore
        /// writer of its own (`jsonstore mirror`'s are `.mirror`).
        package var historySource: HistoryEntry.Source?
        /// The size at which a journal segment is closed. Not public: tests make it small.
        var journalSegmentLimit = 4 << 20
        /// How many items' journal heads a watcher keeps once a look at the whole store
        /// is done (`JournalHeads.forget`). Not public: tests make it small.
        var historyHeadsKeptAtMost = StoreHistory.headsKeptAtMost
        /// Past how many items to record a watcher's first look sends its first version
        /// without waiting for the stamp (`StoreHistory.longLookAbove`). Not public: tests
        /// make it small.
        var historyLongLookAbove = StoreHistory.longLookAbove
        /// Called when a start has checked its start cache, before it walks it beside the
        /// listing. Not public: a test changes the cache in between.
        var startCacheChecked: (@Sendable () -> Void)?
        /// Called when a start has begun reading its start cache, before its watcher is
        /// set up, with a wait (up to the given seconds) for the reading to end. Not
        /// public: a test edits a file before the watcher starts.
        var startCacheBegun: (@Sendable (_ finished: @Sendable (Double) -> Bool) -> Void)?

        public init() {}
    }

    /// The store directory's path, as given; for a store on etcd, its address
    /// (`etcd://127.0.0.1:2379/tasks`).
    public let path: String
    /// How the store reads and writes.
    public let options: Options

    /// The live pipeline, started by the first observer.
    let engine: LiveEngine
    /// Where the store lives when it is not a directory (etcd); `nil` for a directory.
    let remote: (any RemoteBackend)?

    /// The history of a directory store that keeps one; `nil` on etcd.
    let history: StoreHistory?

    /// The store's schema, read again by each read and write, compiled once per version.
    let schemas: SchemaCache

    /// Whether this value's first write has looked for stale temp files yet.
    let staleFilesSwept = Atomic<Bool>(false)

    var reader: JSONReader { JSONReader(maxDepth: options.maxDepth, maxSize: options.maxFileSize) }

    /// Opens the store in `directory`.
    ///
    /// Opening only checks the directory (and finishes a batch a killed writer left half
    /// done): a command that reads one item does not list a store of a million files. Temp
    /// files left by crashed writers are removed by the first write.
    ///
    /// - Throws: `StoreError` with code `.storeUnavailable` when the directory does not exist
    ///   (unless `options.createDirectory`) or is not a directory.
    public init(directory: String, options: Options = Options()) throws(StoreError) {
        self.path = directory
        self.options = options
        remote = nil
        let history =
            options.keepsHistory
            ? StoreHistory(
                store: directory,
                reader: JSONReader(maxDepth: options.maxDepth, maxSize: options.maxFileSize),
                source: options.historySource ?? .jsonstore(command: options.writerName),
                syncsEachWrite: options.historySyncsEachWrite,
                segmentLimit: options.journalSegmentLimit,
                retention: Journal.Retention(
                    maxAge: options.historyMaxAge, maxBytes: options.historyMaxBytes),
                headsKeptAtMost: options.historyHeadsKeptAtMost,
                longLookAbove: options.historyLongLookAbove,
                usesStartCache: options.keepsStartCache) : nil
        self.history = history
        let schemas = SchemaCache()
        self.schemas = schemas
        engine = LiveEngine(
            configuration: LiveEngine.Configuration(
                path: directory, remote: nil,
                reader: JSONReader(maxDepth: options.maxDepth, maxSize: options.maxFileSize),
                watchMode: options.watchMode, deletionGrace: options.deletionGracePeriod,
                fallbackDelay: options.unclosedFileDelay,
                reattachInterval: options.reattachInterval, gitHoldLimit: options.gitHoldLimit,
                parallelAbove: options.parallelLoadThreshold,
                recorder: history.map(HistoryRecorder.init), schemas: schemas,
                keepsStartCache: options.keepsStartCache,
                startCacheChecked: options.startCacheChecked,
                startCacheBegun: options.startCacheBegun))
        if options.createDirectory {
            do {
                try FileDescriptor.makeDirectory(directory, permissions: 0o755)
            } catch .fileExists {
                // there already: `openDirectory` says whether it is a directory
            } catch {
                throw StoreError.system(
                    error, "could not create the store directory", file: directory)
            }
        }
        let dir = try openDirectory()
        defer { dir.close() }
        // A batch a killed writer left half done is finished now, so that no reader of
        // this store sees half a batch. (Best effort: a user who may not write the store
        // reads it as it is.)
        if BatchJournal.exists(in: dir), let lock = try? StoreLock.acquire(in: dir) {
            _ = try? BatchJournal.recover(in: dir)
            lock.close()
        }
    }

    /// Opens the store that `backend` holds. Backends call this from their own
    /// initializers, for example `JSONStore(etcd:prefix:options:)` of `JSONStoreEtcd`.
    package init(remote backend: any RemoteBackend, options: Options) {
        path = backend.address
        self.options = options
        remote = backend
        history = nil
        schemas = SchemaCache()
        engine = LiveEngine(
            configuration: LiveEngine.Configuration(
                path: backend.address, remote: backend,
                reader: JSONReader(maxDepth: options.maxDepth, maxSize: options.maxFileSize),
                watchMode: options.watchMode, deletionGrace: options.deletionGracePeriod,
                fallbackDelay: options.unclosedFileDelay,
                reattachInterval: options.reattachInterval, gitHoldLimit: options.gitHoldLimit,
                parallelAbove: options.parallelLoadThreshold))
    }

    /// Opens the store directory for `*at` calls; the caller closes it.
    func openDirectory() throws(StoreError) -> FileDescriptor {
        do {
            return try .openDirectory(path)
        } catch .noSuchFile {
            throw StoreError(
                code: .storeUnavailable, message: "the store directory does not exist", file: path)
        } catch .notDirectory {
            throw StoreError(code: .storeUnavailable, message: "is not a directory", file: path)
        } catch {
            throw StoreError.system(error, "could not open the store directory", file: path)
        }
    }

    /// The path of the item file of `id` (on etcd, its key).
    package func filePath(_ id: String) -> String {
        remote?.location(of: id) ?? join(path, ItemID.fileName(id))
    }
}
