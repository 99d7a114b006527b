import Glibc

/// A value guarded by a `pthread_mutex_t`.
///
/// Used instead of `Synchronization.Mutex`: on Linux, `Mutex` waits on a futex in the
/// toolchain's library, which ThreadSanitizer cannot see into, so under contention it
/// reports races on the guarded value that are not there (a four-line stress test shows
/// it). ThreadSanitizer intercepts pthread mutexes, so its runs over this lock prove what
/// they should.
///
/// The value lives behind a pointer rather than in a stored property: the compiler's
/// access checks on a stored property of no size (a `Locked(())`, a lock guarding
/// nothing but a section of code) reach ThreadSanitizer as accesses outside the lock,
/// and it reports a race that is not there.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    package init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
