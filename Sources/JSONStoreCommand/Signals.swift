import Dispatch
import Glibc
import Synchronization

/// Signals handled as events on a queue rather than by interrupting whatever runs.
///
/// A handler of our own notes each signal in a bit and wakes, with a byte down a pipe, the
/// dispatch source that reads the pipe's other end. Dispatch's signal sources were used before, and lost signals:
/// Dispatch installs its own handler only once its event thread has registered the
/// source, a moment after `resume()`, and until then a signal went to whatever was set in
/// the meantime (`SIG_IGN`, which also throws a pending one away). `dispatchMain()` waits
/// with every signal unblocked, so a SIGTERM pending since the command started (children
/// of some runners and service managers start with it blocked) was delivered right then,
/// often before the registration: a `list --follow` ran on after SIGTERM.
enum Signals {
    private struct Handler {
        let queue: DispatchQueue
        let body: @Sendable (Int32) -> Void
    }

    private static let handlers = Mutex<[Int32: Handler]>([:])

    /// The signals raised since the reader last looked, bit `n` for signal `n`: set by the
    /// handler, so a signal is never lost to a full pipe, and each is handled once however
    /// many times it came meanwhile, as a dispatch source coalesces them.
    private static let raised = Atomic<UInt64>(0)

    /// The pipe the signal handler writes to: both ends non-blocking and closed on exec.
    /// A `let`, set up before any handler is installed, so the handler only reads it.
    private static let pipe: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { return (-1, -1) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }()

    /// Reads the pipe and calls the handlers; kept alive for the command's life.
    /// nonisolated(unsafe): set once, and never touched again.
    nonisolated(unsafe) private static let reader: DispatchSourceRead? = {
        guard pipe.read >= 0 else { return nil }
        let source = DispatchSource.makeReadSource(
            fileDescriptor: pipe.read, queue: DispatchQueue(label: "jsonstore.signals"))
        source.setEventHandler {
            // The bytes only wake the reader; which signals came is in `raised`.
            var bytes = [UInt8](repeating: 0, count: 64)
            _ = read(pipe.read, &bytes, bytes.count)
            let bits = raised.exchange(0, ordering: .sequentiallyConsistent)
            for number in Int32(1)..<64 where bits & (1 << UInt64(number)) != 0 {
                guard let handler = handlers.withLock({ $0[number] }) else { continue }
                handler.queue.async { handler.body(number) }
            }
        }
        source.resume()
        return source
    }()

    /// Calls `handler` on `queue` for each of `signals`; their default actions are off. A
    /// signal has one handler: handling it again replaces the first.
    ///
    /// A signal that came earlier, while blocked, is pending: the calling thread unblocks
    /// the signals once the handler is in place, so it is delivered then, and handled.
    static func handle(
        _ signals: [Int32], on queue: DispatchQueue, _ handler: @escaping @Sendable (Int32) -> Void
    ) {
        guard pipe.write >= 0, reader != nil else { return }
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals {
            handlers.withLock { $0[number] = Handler(queue: queue, body: handler) }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let saved = errno
                if number > 0, number < 64 {
                    Signals.raised.bitwiseOr(1 << UInt64(number), ordering: .sequentiallyConsistent)
                }
                var byte: UInt8 = 1
                _ = write(Signals.pipe.write, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
            sigaddset(&set, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Exits with status 0 on SIGINT, SIGTERM or SIGHUP.
    static func exitOnInterrupt() {
        handle([SIGINT, SIGTERM, SIGHUP], on: .global()) { _ in exit(ExitCode.success.rawValue) }
    }
}
