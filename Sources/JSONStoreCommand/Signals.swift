import Dispatch
import Glibc

/// Signals handled as events on a queue rather than by interrupting whatever runs.
enum Signals {
    /// nonisolated(unsafe): appended to only on the main thread, before `dispatchMain()`
    /// (the sources just have to stay alive).
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Calls `handler` on `queue` for each of `signals`; their default actions are off.
    ///
    /// A signal that came before this, while blocked (children of some test runners and
    /// service managers start with SIGTERM blocked), is pending: ignoring it would throw it
    /// away, and a command asked to stop at once would run on. It is handled too.
    static func handle(
        _ signals: [Int32], on queue: DispatchQueue, _ handler: @escaping @Sendable (Int32) -> Void
    ) {
        for number in signals {
            var pending = sigset_t()
            sigemptyset(&pending)
            sigpending(&pending)
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
            if sigismember(&pending, number) == 1 { queue.async { handler(number) } }
        }
    }

    /// Exits with status 0 on SIGINT, SIGTERM or SIGHUP.
    static func exitOnInterrupt() {
        handle([SIGINT, SIGTERM, SIGHUP], on: .global()) { _ in exit(ExitCode.success.rawValue) }
    }
}
