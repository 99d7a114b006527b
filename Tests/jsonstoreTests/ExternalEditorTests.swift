import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStoreCommand

/// The editor the list view starts, started from a thread like Dispatch's.
@Suite("The external editor")
struct ExternalEditorTests {
    @Test("an editor started from a thread with signals blocked has none blocked")
    func signalMask() throws {
        let temp = try TemporaryStore()
        let out = temp.path + "/mask"
        // Dispatch's worker threads, where the list view's `e` runs, block all but the
        // crash signals; the editor must not inherit that.
        let status = Thread.blocking {
            var all = sigset_t()
            sigfillset(&all)
            var old = sigset_t()
            pthread_sigmask(SIG_BLOCK, &all, &old)
            defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
            // `exec`: dash clears the mask of the children it forks, not its own, which an
            // editor run as `exec vim` (or by another shell) keeps.
            return ExternalEditor.run("exec grep SigBlk /proc/self/status >", on: out)
        }
        #expect(try #require(status, "the editor did not end within a minute").get() == 0)
        let line = try String(contentsOfFile: out, encoding: .utf8)
        #expect(line.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000")
    }
}

extension Thread {
    /// Runs `body` on a thread of its own and waits for its result, a minute at most.
    fileprivate static func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        let thread = Thread {
            result = body()
            done.signal()
        }
        thread.start()
        guard done.wait(timeout: .now() + 60) == .success else { return nil }
        return result
    }
}
