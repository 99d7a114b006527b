import Dispatch
import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// A store on a FUSE mount (bindfs, a real user-space file system): inotify does not see
/// writes that reach the files without passing through the mount, as it does not see
/// other machines' writes on NFS or sshfs, so the default watch polls there and says why.
@Suite(
    "Watching where inotify misses writes",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/bindfs"),
        "bindfs is not installed: apt-get install bindfs"),
    .enabled(if: getuid() == 0, "mounting a FUSE file system here needs root"))
struct WatchHealthTests {
    /// Runs `arguments` (a path, then its arguments) and returns its exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        guard posix_spawn(&pid, arguments[0], nil, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }

    @Test("on FUSE the default watch polls, and a write behind the mount is seen")
    func fuse() async throws {
        let backing = try TemporaryStore()
        let mount = try TemporaryStore()
        try backing.writeFile("tea.json", #"{"title": "Make tea"}"#)
        // Spawned and waited for by pid: bindfs leaves a daemon that keeps the descriptors
        // it inherited, which Foundation's Process would wait on.
        // Off the concurrency pool's few threads, which a wait must not hold.
        let (from, to) = (backing.path, mount.path)
        let status = try await blocking { Self.run(["/usr/bin/bindfs", from, to]) }
        try #require(status == 0, "bindfs could not mount")
        let mounted = Locked(true)
        defer {  // on a failure before the end: unmount before the directories go
            if mounted.withLock({ $0 }) { _ = Self.run(["/usr/bin/fusermount", "-u", "-z", to]) }
        }
        let store = try JSONStore(directory: mount.path)
        var changes = store.changes().makeAsyncIterator()
        guard case .initial(let results)? = await changes.next() else {
            Issue.record("no initial results")
            return
        }
        #expect(results.map(\.id) == ["tea"])
        #expect(store.watching.contains("polling") && store.watching.contains("fuse"))
        // Written behind the mount, as another machine writes an NFS export.
        try backing.writeFile("coffee.json", #"{"title": "Make coffee"}"#)
        guard case .update(let next, _)? = await changes.next() else {
            Issue.record("no update")
            return
        }
        #expect(next.map(\.id) == ["coffee", "tea"])
        // A local directory is watched with inotify.
        let local = try TemporaryStore()
        var localChanges = local.store.changes().makeAsyncIterator()
        _ = await localChanges.next()
        #expect(local.store.watching.hasPrefix("inotify"), "\(local.store.watching)")
        // Lazily (-z): the store still polls the mount here, and a busy mount refused a
        // plain unmount, which left it (and its folder in the temporary directory) behind.
        _ = try await blocking { Self.run(["/usr/bin/fusermount", "-u", "-z", to]) }
        mounted.withLock { $0 = false }
    }
}
