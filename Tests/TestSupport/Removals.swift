import Dispatch
import Foundation
import Glibc

/// Directories removed off the cooperative pool: each on a thread of its own, and every
/// removal under way finished before the test process exits (a minute at most), so a
/// test's directory is gone even when its last reference went on one of the pool's
/// threads, where a removal of many files would hold every other test.
public enum Removals {
    private static let pending = DispatchGroup()
    /// The exit handler, registered with the first removal.
    private static let waitsAtExit: Void = {
        atexit { _ = Removals.pending.wait(timeout: .now() + 60) }
    }()

    /// Removes the directory `path` and all it holds, on a thread of its own.
    public static func remove(_ path: String) {
        _ = waitsAtExit
        pending.enter()
        Thread.detachNewThread {
            removeNow(path)
            pending.leave()
        }
    }

    /// Removes `path` on this thread. A recording of the store's history under way as it
    /// goes may make its lock file again in the directory being removed: remove until it
    /// is gone, a few times at most.
    private static func removeNow(_ path: String) {
        for _ in 0..<20 {
            try? FileManager.default.removeItem(atPath: path)
            guard FileManager.default.fileExists(atPath: path) else { return }
            usleep(5_000)
        }
    }
}
