import Dispatch
import JSONStore

/// Records every state a store reports, in order, until released or stopped.
public final class StateRecorder: Sendable {
    private let recorded = Locked<[StoreState]>([])
    private let token = Locked<ObservationToken?>(nil)

    public init(_ store: JSONStore) {
        let observation = store.observeState(on: DispatchQueue(label: "test.states")) {
            [weak self] state in
            self?.recorded.withLock { $0.append(state) }
        }
        token.withLock { $0 = observation }
    }

    /// The states so far.
    public var states: [StoreState] { recorded.withLock { $0 } }

    /// Waits until `predicate` holds for the states so far, or `timeout` seconds pass.
    /// Returns whether it held.
    public func wait(timeout: Double = 20, until predicate: @Sendable ([StoreState]) -> Bool)
        async -> Bool
    {
        let deadline = DispatchTime.now() + timeout
        while !predicate(states) {
            if DispatchTime.now() >= deadline { return false }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return true
    }

    public func stop() {
        token.withLock { $0?.invalidate() }
    }
}
