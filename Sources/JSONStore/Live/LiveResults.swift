import Observation

/// Live results for UI code: an `@Observable` object whose `results`, `state` and
/// `lastChange` change on the main actor as the store changes.
///
/// The counterpart of an `ObservableObject` store in SwiftUI: views read `results`, and
/// every edit on disk re-renders them. All the reading and diffing happens off the main
/// actor; only the finished results are published on it.
///
/// For example:
///
/// ```swift
/// @MainActor let live = LiveResults(store: store, query: Query.all.sorted(by: "priority"))
/// withObservationTracking { _ = live.results.count } onChange: { print("changed") }
/// ```
@MainActor
@Observable
public final class LiveResults {
    /// The current results; empty until the first load is done.
    public private(set) var results = Results()
    /// What the store is doing: loading, live, resyncing, failed.
    public private(set) var state = StoreState.loading(done: 0, total: 0)
    /// The last change set applied, if any.
    public private(set) var lastChange: ChangeSet?
    /// Whether the first results have arrived.
    public private(set) var isLoaded = false

    @ObservationIgnored private var tokens: [ObservationToken] = []

    /// Starts observing `query` in `store`.
    public init(store: JSONStore, query: Query = .all) {
        tokens.append(store.observe(query) { [weak self] change in
            self?.apply(change)
        })
        tokens.append(store.observeState { [weak self] state in
            self?.state = state
        })
    }

    private func apply(_ change: StoreChange) {
        switch change {
        case .initial(let results):
            self.results = results
            isLoaded = true
        case .update(let results, let changes):
            self.results = results
            lastChange = changes
        case .error:
            break  // the state says failed; the last results stay on screen
        }
    }

    /// Stops following the store.
    public func stop() {
        for token in tokens { token.invalidate() }
        tokens.removeAll()
    }
}
