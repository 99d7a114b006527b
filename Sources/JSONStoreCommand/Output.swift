import Glibc
import JSONStore

/// Writing to stdout and stderr: unbuffered `write(2)`, so every line is out when the call
/// returns (NDJSON consumers see each event at once).
enum Output {
    static func out(_ text: String) {
        write(fd: STDOUT_FILENO, text)
    }

    static func line(_ text: String) {
        write(fd: STDOUT_FILENO, text + "\n")
    }

    /// Each of `lines` followed by a newline, in one write.
    static func lines(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        write(fd: STDOUT_FILENO, lines.map { $0 + "\n" }.joined())
    }

    /// `value` as pretty JSON safe for a terminal (C1 controls and line separators
    /// escaped too).
    static func prettyJSON(_ value: JSONValue) -> String {
        String(decoding: JSONWriter.pretty(value, escapingUnicodeLineBreaks: true), as: UTF8.self)
    }

    /// `jsonstore: <message>` on stderr. The message must already be safe to print.
    static func error(_ message: String) {
        write(fd: STDERR_FILENO, "jsonstore: \(message)\n")
    }

    static func write(fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        writeAll(fd: fd, &bytes)
    }

    static func writeAll(fd: Int32, _ bytes: inout [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return  // a closed pipe: nothing more can be said
            }
            offset += n
        }
    }

    /// Whether `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}
