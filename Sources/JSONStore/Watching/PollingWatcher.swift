import Dispatch
import Glibc

/// Watches a directory by listing it every interval and comparing each entry's signature
/// (kind, size, modification and change times, inode) with the last listing.
///
/// For network file systems, where inotify misses other machines' writes. Edits are seen
/// up to two intervals late; what changed is still decided by reading the files.
///
/// Idle polls are cheap: the listing is kept as the directory's name bytes back to back
/// (no string, no hash table), and while the names are the same as last time, each poll
/// looks at every other entry's status in turn, so each entry's every second poll. When a
/// name comes or goes, that poll looks at all of them and compares by name.
///
/// `@unchecked Sendable`: its timer's handler holds it weakly, and that handler and every
/// method run on the pipeline queue, which `poll()` checks with a `dispatchPrecondition`.
final class PollingWatcher: DirectoryWatcher, @unchecked Sendable {
    private let path: String
    private let queue: DispatchQueue
    let control: SourceControl
    private let handler: @Sendable (WatchBatch) -> Void
    private var last = PollListing()
    /// The directory's status when its names were last listed.
    private var listedDirectory: FileStatus?
    /// Which half of the entries the next idle poll looks at.
    private var phase = 0
    private var gone = false
    /// The schema document's status at the last poll (`nil`: none).
    private var schema: FileStatus?

    init(
        path: String, interval: Double, queue: DispatchQueue,
        handler: @escaping @Sendable (WatchBatch) -> Void
    ) {
        self.path = path
        self.queue = queue
        self.handler = handler
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        control = SourceControl(timer)
        if let dir = try? FileDescriptor.openDirectory(path) {
            if var listing = try? PollListing(dir) {
                listing.statusAll(in: dir)
                last = listing
            }
            schema = try? dir.linkStatus(of: Self.schemaPath)
            dir.close()
        }
        timer.setEventHandler { [weak self] in
            guard let batch = self?.poll(everyEntry: false), !batch.isEmpty else { return }
            handler(batch)
        }
    }

    private func poll(everyEntry: Bool) -> WatchBatch {
        dispatchPrecondition(condition: .onQueue(queue))
        var batch = WatchBatch()
        let dir: FileDescriptor
        var current: PollListing
        do throws(Errno) {
            dir = try FileDescriptor.openDirectory(path)
            do throws(Errno) {
                let status = try dir.status()
                if !everyEntry, status == listedDirectory, !Self.isRecent(status.modificationTime) {
                    current = last  // no name came or went: no need to list them again
                } else {
                    current = try PollListing(dir)
                    listedDirectory = status
                }
            } catch {
                dir.close()
                throw error
            }
        } catch let error where error == .noSuchFile || error == .notDirectory {
            if !gone {
                gone = true
                batch.directoryGone = true
            }
            return batch
        } catch {
            // There but unreadable (permissions): the store looks and reports why.
            batch.directoryChanged = true
            return batch
        }
        defer { dir.close() }
        gone = false
        let schemaNow = try? dir.linkStatus(of: Self.schemaPath)
        if schemaNow != schema {
            schema = schemaNow
            batch.schemaChanged = true
        }
        if current.hasSameNames(as: last) && !everyEntry {
            phase ^= 1
            for name in current.statusHalf(phase, in: dir, last: last) {
                batch.readNow.insert(name)
            }
        } else {
            current.statusAll(in: dir)
            for name in current.differences(from: last) { batch.readNow.insert(name) }
        }
        last = current
        return batch
    }

    /// The schema document's path in the store directory.
    private static let schemaPath = PrivateFolder.name + "/" + StoreSchema.fileName

    /// Whether `time` is within two seconds of now: a directory changed then may change
    /// again within its clock's tick (a second, on some file systems) without its time
    /// moving, so it is listed again until it is older.
    private static func isRecent(_ time: timespec) -> Bool {
        WallClock.now().tv_sec - time.tv_sec < 2
    }

    func pollNow() {
        guard control.isRunning else { return }
        let batch = poll(everyEntry: true)
        if !batch.isEmpty { handler(batch) }
    }
}
