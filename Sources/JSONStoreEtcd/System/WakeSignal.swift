import Glibc

/// A signal that wakes a thread waiting on a socket (`ByteStream.receive(…, wake:)`), from
/// any thread: a pipe whose read end the waiter polls beside the socket.
///
/// A signal given while no one waits stays until the next wait takes it, so none is lost;
/// several given before a wait wake it once.
final class WakeSignal: @unchecked Sendable {
    /// The pipe's ends, both non-blocking and closed on exec; -1 when no pipe could be made
    /// (then `signal` does nothing, and a waiter wakes by its deadline alone).
    let readEnd: CInt
    private let writeEnd: CInt

    /// The corresponding C functions are `pipe` and `fcntl`.
    init() {
        var ends: [CInt] = [-1, -1]
        guard pipe(&ends) == 0 else {
            (readEnd, writeEnd) = (-1, -1)
            return
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        if readEnd >= 0 { Glibc.close(readEnd) }
        if writeEnd >= 0 { Glibc.close(writeEnd) }
    }

    /// Wakes the waiter, or the next one; safe from any thread. A full pipe already says so.
    ///
    /// The corresponding C function is `write`.
    func signal() {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Takes every signal given so far, so the next wait sleeps until a new one.
    ///
    /// The corresponding C function is `read`.
    func drain() {
        guard readEnd >= 0 else { return }
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }
}
