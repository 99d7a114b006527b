import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// While git holds its index lock, publications wait: a checkout reaches observers as one
/// update however slowly git writes, so a file git removes and writes anew is one
/// modification even when its deletion's grace period runs out in between.
@Suite("Publications wait for git's index lock")
struct GitLockTests {
    /// A store of `a`, `b` and `c` in a work tree (a `.git` directory beside the items),
    /// observed.
    func observedWorkTree() async throws -> LiveFixture {
        let f = try LiveFixture(startObserving: false)
        try FileManager.default.createDirectory(
            atPath: f.file(".git"), withIntermediateDirectories: false)
        f.startObserving()
        #expect(await f.started())
        return f
    }

    @Test("a file removed, left missing past the grace period, written anew: one modification")
    func slowGit() async throws {
        let f = try await observedWorkTree()
        // git's first step, and its slowest case: the lock is taken, a file is removed
        // and, after longer than the deletion grace period (50 ms), written anew.
        #expect(FileManager.default.createFile(atPath: f.file(".git/index.lock"), contents: nil))
        #expect(unlink(f.file("a.json")) == 0)
        // The stimulus is time itself: git descheduled between the unlink and the write.
        try await Task.sleep(for: .milliseconds(300))
        #expect(f.recorder.current.updates.isEmpty)  // held, not published half done
        f.writeInPlace("a.json", "{\n  \"title\": \"a2\"\n}\n")
        f.writeInPlace("d.json", "{\n  \"title\": \"d\"\n}\n")
        #expect(rename(f.file(".git/index.lock"), f.file(".git/index")) == 0)
        let updates = await f.settledUpdates()
        #expect(updates.count == 1)
        #expect(updates.first?.deletions == [])
        #expect(updates.first?.modified.map(\.new.id) == ["a"])
        #expect(updates.first?.inserted.map(\.id) == ["d"])
        #expect(f.recorder.current.violations == [])
    }

    @Test("a lock left behind by a crashed git is waited for 10 s at most, once")
    func staleLock() async throws {
        let f = try await observedWorkTree()
        #expect(FileManager.default.createFile(atPath: f.file(".git/index.lock"), contents: nil))
        let start = Date()
        f.writeInPlace("b.json", "{\n  \"title\": \"b2\"\n}\n")
        #expect(await f.recorder.wait(timeout: 30) { $0.updates.count == 1 })
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 9.5, "published after \(waited) s")
        // The same stale lock is not waited for again.
        f.writeInPlace("c.json", "{\n  \"title\": \"c2\"\n}\n")
        #expect(await f.recorder.wait(timeout: 5) { $0.updates.count == 2 })
        #expect(Date().timeIntervalSince(start) < waited + 5)
    }
}
