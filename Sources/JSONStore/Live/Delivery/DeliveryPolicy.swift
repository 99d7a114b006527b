/// How often an observation is told about changes: every batch (the default), at most
/// once an interval, or in bursts merged within a window that a cap keeps from starving.
///
/// Whatever the policy, nothing is lost: the changes that wait merge into one update, from
/// what the observer last received to the newest state, and the last state is always
/// delivered. GRDB's and notify's users asked for both: a throttle for a view that redraws
/// (`throttle(interval:)`), and a debounce that a steady stream of edits cannot hold back
/// for ever (`coalesce(window:cap:)`).
///
/// ```swift
/// let token = store.observe(policy: .coalesce(window: 0.05, cap: 0.25), on: .main) { change in
///     redraw(change)
/// }
/// ```
public enum DeliveryPolicy: Sendable, Equatable {
    /// Every batch of changes, merged only while the observer's callback is busy.
    case everyBatch
    /// At most one update every `interval` seconds; changes made meanwhile wait and merge,
    /// and the last of them goes out at the end of the interval.
    case throttle(interval: Double)
    /// Changes that arrive within `window` seconds of one another merge into one update,
    /// but none waits longer than `cap` seconds, however steadily changes keep coming.
    case coalesce(window: Double, cap: Double)

    /// When changes pending since `first`, the last of them at `last`, may go out, the
    /// observer having been sent its last update at `sent` (times of the monotonic clock,
    /// in seconds).
    func due(first: Double, last: Double, sent: Double?) -> Double {
        switch self {
        case .everyBatch: first
        case .throttle(let interval): max(first, (sent ?? -.infinity) + interval)
        case .coalesce(let window, let cap): min(last + window, first + cap)
        }
    }
}
