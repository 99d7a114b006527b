import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

/// While git holds its index lock, publications wait: a checkout reaches observers as one
/// update however slowly git writes, so a file git removes and writes anew is one
/// modification even when its deletion's grace period runs out in between.
@Suite("Publications wait for git's index lock")
struct GitLockTests {
    /// A store of `a`, `b` and `c` in a work tree (a `.git` directory beside the items),
    /// observed; publications wait for git's lock `holdLimit` seconds at most.
    func observedWorkTree(holdLimit: Double = 10, deletionGrace: Double = 0.05) async throws
        -> LiveFixture
    {
        var options = JSONStore.Options()
        options.gitHoldLimit = holdLimit
        options.deletionGracePeriod = deletionGrace
        let f = try LiveFixture(options: options, startObserving: false)
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
        // and, after longer than the deletion grace period (50 ms), written anew. On a
        // thread of its own: the tests' shared threads can be held up for seconds by
        // others, longer than the 10 s the pipeline waits for git.
        let heldBack = try await blocking { () -> Bool in
            _ = FileManager.default.createFile(atPath: f.file(".git/index.lock"), contents: nil)
            unlink(f.file("a.json"))
            // The stimulus is time itself: git descheduled between the unlink and the write.
            usleep(300_000)
            let nothingYet = f.recorder.current.updates.isEmpty  // held, not published half done
            f.writeInPlace("a.json", "{\n  \"title\": \"a2\"\n}\n")
            f.writeInPlace("d.json", "{\n  \"title\": \"d\"\n}\n")
            rename(f.file(".git/index.lock"), f.file(".git/index"))
            return nothingYet
        }
        #expect(heldBack)
        let updates = await f.settledUpdates()
        #expect(updates.count == 1)
        #expect(updates.first?.deletions == [])
        #expect(updates.first?.modified.map(\.new.id) == ["a"])
        #expect(updates.first?.inserted.map(\.id) == ["d"])
        #expect(f.recorder.current.violations == [])
    }

    @Test("when git is done, what it removed is removed at once, in the one update")
    func settledWhenGitIsDone() async throws {
        // A grace period far longer than the wait below: a deletion git made is final when
        // git is done, never an update of its own once the grace period is over. (Before,
        // a deletion read late, as a slow machine reads git's events, was.)
        let f = try await observedWorkTree(holdLimit: 120, deletionGrace: 60)
        let lock = f.file(".git/index.lock")
        #expect(FileManager.default.createFile(atPath: lock, contents: nil))
        f.writeInPlace("a.json", "{\n  \"title\": \"a2\"\n}\n")
        unlink(f.file("b.json"))
        f.writeInPlace("d.json", "{\n  \"title\": \"d\"\n}\n")
        #expect(await holdsForGit(f.store))
        rename(lock, f.file(".git/index"))
        #expect(await f.recorder.wait(timeout: 20) { $0.ids == ["a", "c", "d"] })
        let updates = f.recorder.current.updates
        #expect(updates.count == 1)
        #expect(updates.first?.deleted.map(\.id) == ["b"])
        #expect(updates.first?.modified.map(\.new.id) == ["a"])
        #expect(updates.first?.inserted.map(\.id) == ["d"])
        #expect(f.recorder.current.violations == [])
    }

    /// Waits (20 s at most) until the pipeline holds its publications for git. It looks
    /// once more after the deadline: a test resumed late by a loaded machine (its sleep
    /// outlasting the deadline) sees the hold that began meanwhile, and it lasts until
    /// the test ends it.
    func holdsForGit(_ store: JSONStore) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if await store.engine.gitHeldSince != nil { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return await store.engine.gitHeldSince != nil
    }

    @Test("a lock left behind by a crashed git is waited for the hold limit at most, once")
    func staleLock() async throws {
        let f = try await observedWorkTree(holdLimit: 1)
        #expect(FileManager.default.createFile(atPath: f.file(".git/index.lock"), contents: nil))
        let start = Date()
        f.writeInPlace("b.json", "{\n  \"title\": \"b2\"\n}\n")
        #expect(await f.recorder.wait(timeout: 30) { $0.updates.count == 1 })
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 0.95, "published after \(waited) s")  // a lower bound: load only adds
        // The same stale lock is not waited for again: with the lock still there, the next
        // edit is published, and one update each.
        f.writeInPlace("c.json", "{\n  \"title\": \"c2\"\n}\n")
        #expect(await f.recorder.wait(timeout: 30) { $0.updates.count == 2 })
        #expect(FileManager.default.fileExists(atPath: f.file(".git/index.lock")))
        #expect(
            f.store.watching.hasSuffix(
                "; git's index.lock has been there over 1.0 s, so edits are no longer held for git"),
            "\(f.store.watching)")
    }

    @Test(
        "a merge, rebase or cherry-pick stopped for the user holds nothing back",
        arguments: [
            "MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD", "REVERT_HEAD",
        ])
    func stoppedForTheUser(marker: String) async throws {
        // A limit longer than the test's patience: were the marker waited for, the edit
        // would not arrive in time.
        let f = try await observedWorkTree(holdLimit: 600)
        let path = f.file(".git/" + marker)
        if marker.hasPrefix("rebase") {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: false)
        } else {
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The user fixes the conflict by hand: each save is shown as it is made.
        f.writeInPlace("a.json", "{\n  \"title\": \"a2\"\n}\n")
        #expect(await f.recorder.wait(timeout: 20) { $0.updates.count == 1 })
        f.writeInPlace("b.json", "{\n  \"title\": \"b2\"\n}\n")
        #expect(await f.recorder.wait(timeout: 20) { $0.updates.count == 2 })
        #expect(f.store.state == .live)
    }

    @Test("while git writes, the store's state says edits are held, and why")
    func heldState() async throws {
        let f = try await observedWorkTree(holdLimit: 600)
        let lock = f.file(".git/index.lock")
        #expect(FileManager.default.createFile(atPath: lock, contents: nil))
        f.writeInPlace("a.json", "{\n  \"title\": \"a2\"\n}\n")
        let deadline = ContinuousClock.now + .seconds(20)
        while f.store.state.name != "held" && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(f.store.state.description == "held: git is writing (index.lock)")
        #expect(f.recorder.current.updates.isEmpty)
        rename(lock, f.file(".git/index"))
        #expect(await f.recorder.wait(timeout: 20) { $0.updates.count == 1 })
        #expect(f.store.state == .live)
    }

    @Test("a real git rebase that runs a command between its picks: each git write one update")
    func realRebase() async throws {
        let f = try LiveFixture(startObserving: false)
        let git = "git -c user.name=t -c user.email=t@example.com"
        let script = """
            cd '\(f.path)' && git init -q -b main . && \(git) add -A && \(git) commit -qm base &&
            git checkout -qb topic &&
            for id in a b c; do sed -i "s/\\"$id\\"/\\"$id on topic\\"/" $id.json && \(git) commit -qam $id; done &&
            git checkout -q main && printf '{\\n  "title": "d"\\n}\\n' > d.json && \(git) add d.json &&
            \(git) commit -qm d && git checkout -q topic
            """
        await #expect(try JSONStoreBinary.shell(script).status == 0)
        f.startObserving()
        #expect(await f.started())
        // The command between the picks runs while git writes nothing (no index lock), so
        // nothing is held then: the picks are updates of their own, and the checkout of
        // `main` that begins the rebase (b and c back, d added) is one. The command waits
        // until as many updates have arrived as commands have run: a slow watcher would
        // otherwise read a pick together with the next one, and no sleep is long enough.
        // Its deadline (two minutes) only stops a failing run: under ThreadSanitizer with the
        // suite in parallel, an update has taken over 20 s.
        let gate = f.path + "-gate"
        try FileManager.default.createDirectory(atPath: gate, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: gate) }
        let waitForUpdate = """
            n=$(( $(cat '\(gate)/runs' 2>/dev/null || echo 0) + 1 )); echo $n > '\(gate)/runs'; i=0
            while [ "$(cat '\(gate)/updates' 2>/dev/null || echo 0)" -lt $n ]; do
              i=$((i + 1)); [ $i -gt 2400 ] && exit 1; sleep 0.05
            done
            """
        try replaceWhole(gate + "/wait", with: waitForUpdate)
        // The count is published from a thread of its own: the few threads that run the
        // tests' async code can all be held up by other tests for seconds.
        // Stopped before the gate is removed, and waited for (10 ms at most).
        let publishing = Locked(true)
        let publisherEnded = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while publishing.withLock({ $0 }) {
                let count = f.recorder.current.updates.count
                try? replaceWhole(gate + "/updates", with: String(count))
                usleep(10_000)
            }
            publisherEnded.signal()
        }
        defer {
            publishing.withLock { $0 = false }
            publisherEnded.wait()
        }
        let rebase = try await blocking {
            try JSONStoreBinary.shell(
                "cd '\(f.path)' && \(git) rebase -q -x \"sh '\(gate)/wait'\" main")
        }
        #expect(rebase.status == 0, "\(rebase.stderr)")
        let runs = try String(contentsOfFile: gate + "/runs", encoding: .utf8)
        #expect(runs == "3\n")
        let updates = await f.settledUpdates()
        let described = updates.map { $0.inserted.map(\.id) + $0.modified.map(\.new.id) }
        #expect(updates.count >= 3, "\(described)")
        #expect(updates.first?.inserted.map(\.id) == ["d"], "\(described)")
        let firstModified = Set(updates.first?.modified.map(\.new.id) ?? [])
        #expect(firstModified.isSuperset(of: ["b", "c"]), "\(described)")
        #expect(f.recorder.current.ids == ["a", "b", "c", "d"])
    }

    @Test("a lock already older than the hold limit when first seen is not waited for")
    func oldLock() async throws {
        // A limit longer than the test's patience: were the old lock waited for, the
        // update would not arrive in time.
        let f = try await observedWorkTree(holdLimit: 600)
        let lock = f.file(".git/index.lock")
        #expect(FileManager.default.createFile(atPath: lock, contents: nil))
        // An hour old: left by a crashed git, or a git commit waiting on its editor.
        let old = timespec(tv_sec: time(nil) - 3_600, tv_nsec: 0)
        var times = [old, old]
        #expect(utimensat(AT_FDCWD, lock, &times, 0) == 0)
        f.writeInPlace("b.json", "{\n  \"title\": \"b2\"\n}\n")
        #expect(await f.recorder.wait(timeout: 60) { $0.updates.count == 1 })
        #expect(FileManager.default.fileExists(atPath: lock))
    }
}
