import Dispatch

/// Where an observer's callbacks run, one at a time, in order.
enum Delivery: Sendable {
    /// A serial queue of ours that targets the subscriber's queue, so callbacks never
    /// overlap even if the subscriber's queue is concurrent.
    case queue(DispatchQueue)
    /// The main actor (the main dispatch queue, which is serial and FIFO).
    case mainActor
    /// Directly on the thread that delivers, for continuations that only hand values on:
    /// the pipeline queue for changes, whichever thread set the state for states (loading
    /// progress comes from a timer).
    case immediate

    /// Calls `callback` with `value` on this executor, unless `flag` is cancelled by then.
    func send<Value: Sendable>(
        _ value: Value, to callback: @escaping @Sendable (Value) -> Void,
        unless flag: CancellationFlag
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
