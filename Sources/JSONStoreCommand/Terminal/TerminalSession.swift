import Dispatch
import Glibc

/// The terminal in the list view's modes: alternate screen, raw input without echo,
/// cursor hidden, no line wrap. `restore()` puts it back, on every way out: quitting,
/// signals (SIGINT, SIGTERM, SIGHUP) and crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
/// SIGTRAP), after which the crash goes on as it would have. The view reads its keys and
/// the terminal's size here too.
@MainActor
final class TerminalSession {
    nonisolated static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[2J"
    nonisolated static let leave = "\u{1B}[0m\u{1B}[?2026l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

    private var restored = false
    /// The terminal's raw mode, when it has one (stdin is a terminal).
    private var raw: termios?

    /// Enters the list view's modes.
    init() {
        var original = termios()
        if tcgetattr(STDIN_FILENO, &original) == 0 {
            CrashRestore.saved = original
            CrashRestore.hasTermios = true
            var raw = original
            cfmakeraw(&raw)
            raw.c_oflag |= tcflag_t(OPOST | ONLCR)  // keep newline translation for messages
            self.raw = raw
        }
        CrashRestore.install()
        enterModes()
    }

    private func enterModes() {
        if var raw { tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) }
        Output.write(fd: STDOUT_FILENO, Self.enter)
    }

    /// Puts the terminal back as it was, as on exit, for another program (an editor) to
    /// use; `resume()` enters the list view's modes again.
    func suspend() {
        guard !restored else { return }
        Output.write(fd: STDOUT_FILENO, Self.leave)
        if CrashRestore.hasTermios {
            var original = CrashRestore.saved
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        }
    }

    /// Enters the list view's modes again after `suspend()`.
    func resume() {
        guard !restored else { return }
        enterModes()
    }

    /// Puts the terminal back as it was. Safe to call more than once.
    func restore() {
        suspend()
        restored = true
    }

    /// What the terminal sent since the last read (at most 256 bytes): empty when nothing
    /// could be read, `nil` when the terminal is gone.
    ///
    /// The corresponding C function is `read` on standard input.
    func readInput() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if n == 0 { return nil }
        return n > 0 ? Array(buffer[..<n]) : []
    }

    /// A line typed on the terminal without echo (a password), after `prompt` on stderr;
    /// `nil` when standard input is not a terminal or is closed, or on Ctrl-C or Ctrl-D.
    /// Ctrl-C arrives as a byte (signals are off while it reads), so the echo is always
    /// turned back on.
    ///
    /// The corresponding C functions are `tcgetattr`, `tcsetattr` and `read`.
    nonisolated static func readSecret(prompt: String) -> String? {
        var original = termios()
        guard Output.isTerminal(STDIN_FILENO), tcgetattr(STDIN_FILENO, &original) == 0 else {
            return nil
        }
        var quiet = original
        quiet.c_lflag &= ~tcflag_t(ECHO | ISIG)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            Output.write(fd: STDERR_FILENO, "\n")
        }
        Output.write(fd: STDERR_FILENO, prompt)
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            if byte == 0x03 || (byte == 0x04 && line.isEmpty) { return nil }  // Ctrl-C, Ctrl-D
            line.append(byte)
        }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }

    /// The terminal's size in columns and rows.
    nonisolated static func size() -> (width: Int, height: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (80, 24)
    }
}
