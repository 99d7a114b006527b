import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// EACCES for real: these run only as a user who is not root (root passes every
/// permission check). `.ci/run` runs them as an unprivileged user it creates.
@Suite(
    "Permissions (as a user who is not root)",
    .enabled(if: geteuid() != 0, "root bypasses permissions"))
struct PermissionTests {
    @Test("an unreadable item file is reported with the reason; the others load")
    func unreadableFile() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["n": 1])
        try temp.store.put("secret", ["n": 2])
        #expect(chmod(temp.path + "/secret.json", 0) == 0)
        let contents = try temp.store.load()
        #expect(contents.items.map(\.id) == ["a"])
        let error = try #require(contents.invalid.first?.error)
        #expect(error.code == .permissionDenied)
        #expect(error.description.hasPrefix(temp.path + "/secret.json: "))
        #expect(error.description.contains("Permission denied"))
        do {
            _ = try temp.store.item("secret")
            Issue.record("an unreadable item was read")
        } catch {
            #expect(error.code == .permissionDenied)
        }
    }

    @Test("a directory the user may not write: writes fail clearly, nothing changes")
    func readOnlyDirectory() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["n": 1])
        #expect(chmod(temp.path, 0o555) == 0)
        defer { chmod(temp.path, 0o755) }
        do {
            try temp.store.put("a", ["n": 2])
            Issue.record("wrote into a read-only directory")
        } catch {
            #expect(error.code == .permissionDenied)
            #expect(error.description.contains(temp.path))
            #expect(error.description.contains("Permission denied"))
        }
        #expect(try temp.store.item("a")?["n"] == 1)
        #expect(try temp.names().allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test("the lock file: read-only is enough to lock; unreadable is a clear error")
    func lockFile() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["n": 1])
        let lock = temp.path + "/.jsonstore.lock"
        #expect(chmod(lock, 0o444) == 0)
        try temp.store.put("a", ["n": 2])  // as with a lock file another user created
        #expect(try temp.store.item("a")?["n"] == 2)
        #expect(chmod(lock, 0) == 0)
        do {
            try temp.store.put("a", ["n": 3])
            Issue.record("wrote without the lock")
        } catch {
            #expect(error.code == .permissionDenied)
            #expect(
                error.description.hasPrefix(
                    lock + ": could not take the store lock: Permission denied"))
        }
        #expect(try temp.store.item("a")?["n"] == 2)
    }

    @Test("a directory the user may not read: opening it fails with the reason")
    func unreadableDirectory() throws {
        let temp = try TemporaryStore()
        #expect(chmod(temp.path, 0) == 0)
        defer { chmod(temp.path, 0o755) }
        do {
            _ = try JSONStore(directory: temp.path)
            Issue.record("opened an unreadable directory")
        } catch {
            #expect(error.code == .permissionDenied)
            #expect(error.description.contains(temp.path))
        }
    }

    @Test(
        "an observed directory made unreadable: an error that says so; readable again: live",
        arguments: [WatchMode.inotify, .polling(interval: 0.05)])
    func observedDirectoryUnreadable(_ mode: WatchMode) async throws {
        var options = JSONStore.Options()
        options.watchMode = mode
        let f = try LiveFixture(options: options)
        #expect(await f.started())
        #expect(chmod(f.path, 0) == 0)
        #expect(await f.recorder.wait { !$0.errors.isEmpty })
        let error = try #require(f.recorder.current.errors.first)
        #expect(error.code == .storeUnavailable)
        #expect(error.description.contains("Permission denied"), "\(error)")
        #expect(f.store.state.name == "failed")
        #expect(f.recorder.current.ids == ["a", "b", "c"])  // the last results stay
        #expect(chmod(f.path, 0o755) == 0)
        #expect(await f.recorder.wait { _ in f.store.state == .live })
        try f.temp.writeFile("d.json", "{\"title\": \"d\"}")
        #expect(await f.recorder.wait { $0.ids == ["a", "b", "c", "d"] })
        #expect(f.recorder.current.violations.isEmpty)
    }

    @Test("an observed item that becomes unreadable keeps its last value, flagged")
    func observedUnreadable() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        #expect(chmod(f.file("b.json"), 0) == 0)  // an attribute event: b is read again
        #expect(await f.recorder.wait { $0.results.error(for: "b")?.code == .permissionDenied })
        #expect(f.recorder.current.results.index(ofID: "b") == 1)
        #expect(f.recorder.current.results[1]["title"] == "b")
        #expect(chmod(f.file("b.json"), 0o644) == 0)
        #expect(await f.recorder.wait { $0.results.error(for: "b") == nil })
    }
}
