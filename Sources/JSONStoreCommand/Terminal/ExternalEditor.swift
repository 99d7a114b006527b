import Glibc
import JSONStore

/// The editor the list view opens a file in: `$VISUAL`, else `$EDITOR`, else `vi`, run
/// through `/bin/sh` (so `code --wait` works) in the foreground, every signal unblocked
/// and at its default action, whatever the thread that starts it has.
enum ExternalEditor {
    /// The editor's command line, as the environment gives it.
    static func command(environment: [String: String]) -> String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return "vi"
    }

    /// Runs `command` on `paths` (most editors open several files side by side, `vim -O`
    /// beside one another) and waits for it; returns its exit status, or the error that
    /// kept it from starting.
    static func run(_ command: String, on paths: String...) -> Result<Int32, Errno> {
        run(command, on: paths)
    }

    static func run(_ command: String, on paths: [String]) -> Result<Int32, Errno> {
        let arguments = ["/bin/sh", "-c", command + " \"$@\"", "jsonstore-editor"] + paths
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGPIPE, SIGQUIT] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // The list view spawns from Dispatch's threads, which block every signal but the
        // crash ones: the editor would start with Ctrl-C, SIGTERM and resizes blocked.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid = pid_t()
        let started = posix_spawn(&pid, "/bin/sh", nil, &attributes, &argv, environ)
        guard started == 0 else { return .failure(Errno(rawValue: started)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .failure(Errno(rawValue: errno)) }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        return .success((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
    }
}
