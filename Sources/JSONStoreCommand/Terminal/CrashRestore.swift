import Glibc

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
    nonisolated(unsafe) static var previous: [SignalAction] = .init(
        repeating: SignalAction(), count: 65)

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
