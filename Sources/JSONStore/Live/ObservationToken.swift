import Dispatch
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

/// Keeps an observation alive. Observation stops when `invalidate()` is called or the
/// token is released, whichever comes first.
///
/// The token keeps what the observation needs, the store's pipeline included, so
/// releasing the `JSONStore` value that started it stops nothing (as GRDB's observers
/// keep their database). The pipeline's watcher stops with the last observation.
///
/// Once `invalidate()` has returned, no callback of this observation starts; invalidating
/// from inside a callback (on its executor) stops every later one.
public final class ObservationToken: Sendable {
    let flag: CancellationFlag
    private let onCancel: @Sendable () -> Void

    init(flag: CancellationFlag, onCancel: @escaping @Sendable () -> Void) {
        self.flag = flag
        self.onCancel = onCancel
    }

    /// Stops the observation. Calling it again does nothing.
    public func invalidate() {
        if !flag.cancel() { onCancel() }
    }

    /// Whether the observation was stopped.
    public var isInvalidated: Bool { flag.isCancelled }

    deinit { invalidate() }
}

/// Where an observer's callbacks run, one at a time, in order.
enum Delivery: Sendable {
    /// A serial queue of ours that targets the subscriber's queue, so callbacks never
    /// overlap even if the subscriber's queue is concurrent.
    case queue(DispatchQueue)
    /// The main actor (the main dispatch queue, which is serial and FIFO).
    case mainActor
    /// Directly on the pipeline queue, for continuations that only hand values on.
    case immediate

    /// Calls `callback` with `value` on this executor, unless `flag` is cancelled by then.
    func send<Value: Sendable>(
        _ value: Value, to callback: @escaping @Sendable (Value) -> Void, unless flag: CancellationFlag
    ) {
        run { if !flag.isCancelled { callback(value) } }
    }

    func run(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .queue(let queue): queue.async(execute: work)
        case .mainActor: DispatchQueue.main.async(execute: work)
        case .immediate: work()
        }
    }
}
