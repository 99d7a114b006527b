import Glibc

/// A value guarded by a `pthread_mutex_t`, with a condition its waiters sleep on until a
/// change makes what they wait for true (a gRPC stream's answer, room to send).
///
/// A pthread mutex and condition rather than `Synchronization.Mutex`, for the reason
/// `Locked` gives: ThreadSanitizer sees into these. Deadlines are on the monotonic clock,
/// so a change of the wall clock neither ends a wait early nor makes it last.
final class Monitor<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; every waiter looks again afterwards.
    func change<Result, Failure>(_ body: (inout Value) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Runs `body` with the value, holding the lock, waking no one (a look, or a change no
    /// one waits for).
    func withLock<Result, Failure>(_ body: (inout Value) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Wakes every waiter to look again, after a change made under `withLock` that turned
    /// out to matter to them.
    func broadcast() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Looks at the value with `ready` until it gives a result, sleeping between looks
    /// until a `change` or `deadline`; `nil` once the deadline passed first. `ready` may
    /// change the value (taking what it waited for); no one is woken by that.
    func wait<Result>(until deadline: Deadline, _ ready: (inout Value) -> Result?) -> Result? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let end = Self.monotonic(after: deadline.remaining)
        while true {
            if let result = ready(&value) { return result }
            guard var end else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            if pthread_cond_timedwait(condition, mutex, &end) == ETIMEDOUT {
                return ready(&value)
            }
        }
    }

    /// The monotonic clock's time `seconds` from now; `nil` for never.
    private static func monotonic(after seconds: Double) -> timespec? {
        guard seconds.isFinite, seconds < 3e7 else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = seconds.rounded(.down)
        var nanoseconds = now.tv_nsec + Int((seconds - whole) * 1e9)
        var secondsPart = now.tv_sec + Int(whole)
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            secondsPart += 1
        }
        return timespec(tv_sec: secondsPart, tv_nsec: nanoseconds)
    }
}
