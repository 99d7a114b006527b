import Dispatch
import Glibc

/// The terminal in the list view's modes: alternate screen, raw input without echo,
/// cursor hidden, no line wrap. `restore()` puts it back, on every way out: quitting,
/// signals (SIGINT, SIGTERM, SIGHUP) and crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
/// SIGTRAP), after which the crash goes on as it would have.
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

    /// The terminal's size in columns and rows.
    nonisolated static func size() -> (width: Int, height: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (80, 24)
    }
}

/// What a crash handler needs to put the terminal back: set once before the view starts,
/// read only by the handler, which may use only async-signal-safe calls (`write`,
/// `tcsetattr`, `signal`, `raise`).
enum CrashRestore {
    // nonisolated(unsafe): written once on the main thread before the handler is
    // installed, then read only by the crash handler, which cannot take a lock.
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var hasTermios = false
    static let leaveBytes: [UInt8] = Array(TerminalSession.leave.utf8)

    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
    /// The handlers that were there before ours (Swift's backtracer, say), by signal.
    /// nonisolated(unsafe): as above, written by `install()` before any crash can use it.
    nonisolated(unsafe) static var previous: [SignalAction] = .init(repeating: SignalAction(), count: 65)

    static func install() {
        _ = leaveBytes  // made now, not in the handler
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = crashHandler
            sigaction(signal, &action, &previous[Int(signal)])
        }
    }
}

/// The C `struct sigaction`, named apart from the function of the same name.
typealias SignalAction = sigaction

private func crashHandler(_ signal: Int32) {
    CrashRestore.leaveBytes.withUnsafeBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    if CrashRestore.hasTermios { tcsetattr(STDIN_FILENO, TCSANOW, &CrashRestore.saved) }
    // Hand the crash on to whoever handled it before (or the default action).
    sigaction(signal, &CrashRestore.previous[Int(signal)], nil)
    raise(signal)
}

/// Signals handled as events on a queue rather than by interrupting whatever runs.
enum Signals {
    /// nonisolated(unsafe): appended to only on the main thread, before `dispatchMain()`
    /// (the sources just have to stay alive).
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Calls `handler` on `queue` for each of `signals`; their default actions are off.
    static func handle(_ signals: [Int32], on queue: DispatchQueue, _ handler: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Exits with status 0 on SIGINT, SIGTERM or SIGHUP.
    static func exitOnInterrupt() {
        handle([SIGINT, SIGTERM, SIGHUP], on: .global()) { _ in exit(ExitCode.success.rawValue) }
    }
}
