import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// inotify's per-user instance limit reached for real: a worker running as another user
/// takes every instance that user may have, then observes a store.
@Suite(
    "inotify limits", .enabled(if: geteuid() == 0, "needs root to run the worker as another user"))
struct WatchLimitTests {
    /// Runs the `observe-exhausted` worker in `mode` on a fresh store of a, b, c; returns
    /// its exit status and output lines.
    static func observeExhausted(_ mode: String) async throws -> (status: Int32, lines: [String]) {
        let temp = try TemporaryStore()
        for id in ["a", "b", "c"] { try temp.writeFile("\(id).json", "{\"title\": \"\(id)\"}") }
        #expect(chmod(temp.path, 0o777) == 0)  // the worker's user writes there too
        let path = temp.path
        let (status, output) = try await blocking {
            try HelperProcess.run(["observe-exhausted", path, mode])
        }
        withExtendedLifetime(temp) {}
        return (status, output.split(separator: "\n").map(String.init))
    }

    @Test("out of inotify instances: an error that names the limit, its value and the way out")
    func limitError() async throws {
        let (status, lines) = try await Self.observeExhausted("inotify")
        #expect(status == 0, "\(lines)")
        #expect(lines.first?.hasPrefix("held ") == true)
        let error = try #require(lines.first { $0.hasPrefix("error ") })
        #expect(error.hasPrefix("error watch limit: inotify_init1: Too many open files: "))
        #expect(error.contains("fs.inotify.max_user_instances = \(Self.instances)"))
        #expect(error.contains("sysctl fs.inotify.max_user_instances="))
        #expect(error.contains(".inotifyOrPolling(interval:)"))
    }

    @Test("out of inotify instances with the polling fallback: the store is watched anyway")
    func fallback() async throws {
        let (status, lines) = try await Self.observeExhausted("fallback")
        #expect(status == 0, "\(lines)")
        #expect(lines.dropFirst() == ["initial 3", "update z"], "\(lines)")
    }

    static var instances: String {
        (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_instances", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }
}
