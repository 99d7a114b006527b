import Foundation
import Glibc
import JSONStore

/// A child process started with `posix_spawn` and reaped with `waitpid`, for tests that
/// kill a child at any moment, the first microseconds of its life included.
///
/// Foundation's `Process` learns that a child ended when every copy of one end of a socket
/// pair it gives the child is closed: a child killed while Foundation still sets up its
/// watch, or a grandchild that keeps that end, holds `waitUntilExit` (seen in
/// `SetAndDeleteTests` under the whole suite). Here the child starts with no signal
/// blocked, every one at its default and no descriptor but its three streams, and nothing
/// stands between its end and the wait but the kernel. (Not for every command the tests
/// run: under ThreadSanitizer, children spawned this way beside the etcd tests crashed the
/// test process, SEGV at 0x1048, three runs of three; with Foundation's `Process` none.)
public struct SpawnedChild {
    public let pid: pid_t

    /// Starts `path` with `arguments`, its output and errors thrown away.
    public static func start(_ path: String, _ arguments: [String]) throws -> SpawnedChild {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        return try start(path, arguments, streams: (null, null, null))
    }

    /// Starts `path` with `arguments`, `streams` as its standard input, output and error,
    /// `environment` as its whole environment (the test's own when `nil`), in `directory`.
    public static func start(
        _ path: String, _ arguments: [String], streams: (Int32, Int32, Int32),
        environment: [String: String]? = nil, in directory: String? = nil
    ) throws -> SpawnedChild {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, target) in [streams.0, streams.1, streams.2].enumerated() {
            posix_spawn_file_actions_adddup2(&actions, target, Int32(fd))
        }
        // Nothing else of this process reaches the child: a descriptor another thread
        // opened without O_CLOEXEC (Foundation's watch on a child of its own is one end of
        // a socket pair, whose end it learns of only once every copy is closed) would live
        // as long as this child, and hold up whoever waits on it.
        _ = spawnAddCloseFrom(&actions, 3)
        if let directory { _ = spawnAddChdir(&actions, directory) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var variables = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { variables?.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned =
            variables == nil
            ? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
            : posix_spawn(&pid, path, &actions, &attributes, argv, &variables!)
        guard spawned == 0 else { throw Errno(rawValue: spawned) }
        return SpawnedChild(pid: pid)
    }

    /// Sends `signal` to the child.
    public func kill(_ signal: Int32 = SIGKILL) { _ = Glibc.kill(pid, signal) }

    /// Waits for the child to end; its exit status, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        return Self.decoded(status)
    }

    /// Its exit status (as `wait`) if it has ended, reaping it; `nil` while it runs.
    public func ended() -> Int32? {
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { return Self.decoded(status) }
        return reaped < 0 && errno != EINTR ? -1 : nil
    }

    private static func decoded(_ status: Int32) -> Int32 {
        (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}

// GNU additions Glibc's module does not import.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnAddCloseFrom(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32
) -> Int32

@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnAddChdir(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>
) -> Int32
