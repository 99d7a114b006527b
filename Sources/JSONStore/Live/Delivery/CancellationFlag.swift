import Synchronization

/// A shared "cancelled" flag, read on the delivery executor right before each callback.
final class CancellationFlag: Sendable {
    private let cancelled = Atomic<Bool>(false)

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Sets the flag; returns whether it was already set.
    func cancel() -> Bool {
        cancelled.exchange(true, ordering: .acquiringAndReleasing)
    }
}
