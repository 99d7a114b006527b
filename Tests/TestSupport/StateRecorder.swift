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

    public func stop() {
        token.withLock { $0?.invalidate() }
    }
}
