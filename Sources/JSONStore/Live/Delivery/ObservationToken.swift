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
