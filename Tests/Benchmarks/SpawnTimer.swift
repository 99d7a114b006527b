import Foundation
import Glibc

/// Times a command as a shell would: `posix_spawn`, its stdout to a file, `waitpid`.
///
/// Foundation's `Process` takes about 50 ms on this machine to run `/bin/true` to its end
/// (most of it waiting in `pselect` and `ppoll` of its own run loop), which would be
/// counted as the command's own; this starts it the way `time` or `perf stat` sees it.
enum SpawnTimer {
    /// Runs `path` with `arguments`, stdout to `output`; returns the seconds from the
    /// spawn to the child's exit, and its exit status.
    static func run(_ path: String, _ arguments: [String], stdoutTo output: String) throws
        -> (seconds: Double, status: Int32)
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(
            &actions, STDOUT_FILENO, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = now()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw NSError(domain: "posix_spawn", code: Int(spawned))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (now() - start, (status >> 8) & 0xff)
    }
}
