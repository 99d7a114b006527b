import Dispatch
import Glibc

/// Signals handled as events on a queue rather than by interrupting whatever runs.
enum Signals {
    /// nonisolated(unsafe): appended to only on the main thread, before `dispatchMain()`
    /// (the sources just have to stay alive).
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Calls `handler` on `queue` for each of `signals`; their default actions are off.
    static func handle(
        _ signals: [Int32], on queue: DispatchQueue, _ handler: @escaping @Sendable (Int32) -> Void
    ) {
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
