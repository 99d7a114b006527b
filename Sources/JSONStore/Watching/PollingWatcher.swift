import Dispatch
import Glibc

/// Watches a directory by listing it every interval and comparing each entry's signature
/// (kind, size, modification and change times, inode) with the last listing.
///
/// For network file systems, where inotify misses other machines' writes. Edits are seen
/// up to one interval late; what changed is still decided by reading the files.
///
/// `@unchecked Sendable`: its timer's handler holds it weakly, and that handler and every
/// method run on the pipeline queue, which `poll()` checks with a `dispatchPrecondition`.
final class PollingWatcher: DirectoryWatcher, @unchecked Sendable {
    private struct Signature: Equatable {
        var status: FileStatus
        var changeTime: timespec

        static func == (a: Signature, b: Signature) -> Bool {
            a.status == b.status && a.changeTime.tv_sec == b.changeTime.tv_sec
                && a.changeTime.tv_nsec == b.changeTime.tv_nsec
        }
    }

    private let path: String
    private let queue: DispatchQueue
    let control: SourceControl
    private let handler: @Sendable (WatchBatch) -> Void
    private var last: [UTF8Key: Signature] = [:]
    private var gone = false

    init(path: String, interval: Double, queue: DispatchQueue,
         handler: @escaping @Sendable (WatchBatch) -> Void)
    {
        self.path = path
        self.queue = queue
        self.handler = handler
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        control = SourceControl(timer)
        last = (try? listing().get()) ?? [:]
        timer.setEventHandler { [weak self] in
            guard let batch = self?.poll(), !batch.isEmpty else { return }
            handler(batch)
        }
    }

    /// Every entry's signature, or why the directory cannot be listed.
    private func listing() -> Result<[UTF8Key: Signature], Errno> {
        let dir: FileDescriptor
        do {
            dir = try FileDescriptor.openDirectory(path)
        } catch {
            return .failure(error)
        }
        defer { dir.close() }
        let names: [DirectoryScan.Name]
        do {
            names = try DirectoryScan.names(in: dir)
        } catch {
            return .failure(error)
        }
        var result: [UTF8Key: Signature] = [:]
        for case .text(let name) in names {
            var buf = stat()
            guard fstatat(dir.rawValue, name, &buf, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            result[UTF8Key(name)] = Signature(status: FileStatus(buf), changeTime: buf.st_ctim)
        }
        return .success(result)
    }

    private func poll() -> WatchBatch {
        dispatchPrecondition(condition: .onQueue(queue))
        var batch = WatchBatch()
        let current: [UTF8Key: Signature]
        switch listing() {
        case .success(let listed):
            current = listed
        case .failure(let error) where error == .noSuchFile || error == .notDirectory:
            if !gone {
                gone = true
                batch.directoryGone = true
            }
            return batch
        case .failure:
            // There but unreadable (permissions): the store looks and reports why.
            batch.directoryChanged = true
            return batch
        }
        gone = false
        for (name, signature) in current where last[name] != signature { batch.readNow.insert(name) }
        for name in last.keys where current[name] == nil { batch.readNow.insert(name) }
        last = current
        return batch
    }

    func pollNow() {
        guard control.isRunning else { return }
        let batch = poll()
        if !batch.isEmpty { handler(batch) }
    }
}
