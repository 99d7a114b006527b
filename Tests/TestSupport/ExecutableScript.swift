import Glibc
import JSONStore

/// A shell script a test writes and then has run (an editor for `edit`, a tool).
///
/// Written through a descriptor that closes on exec: one written the way Foundation
/// writes a file stays open, for a moment, in any child another test spawns meanwhile,
/// and that child keeps it open for as long as it runs, so running the script fails with
/// "Text file busy" (ETXTBSY). Seen under CI as the user without privileges.
public enum ExecutableScript {
    /// Writes `text` to `path`, executable.
    public static func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let written = bytes[done...].withUnsafeBytes {
                Glibc.write(fd, $0.baseAddress, $0.count)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw Errno(rawValue: errno) }
            done += written
        }
        guard fchmod(fd, 0o755) == 0 else { throw Errno(rawValue: errno) }
    }
}
