import Observation

/// Live results for UI code: an `@Observable` object whose `results`, `state` and
/// `lastChange` change on the main actor as the store changes.
///
/// The counterpart of Realm's `@ObservedResults` and of an `ObservableObject` store in
/// SwiftUI: views read `results`, and every edit on disk re-renders them. All the reading,
/// decoding and diffing happens off the main actor; only the finished results are
/// published on it. It keeps its observation (and the store's pipeline) alive until
/// `stop()` or until it is released.
///
/// For example:
///
/// ```swift
/// let live = LiveResults(store: store, query: Query.all.sorted(by: \Todo.priority), as: Todo.self)
/// withObservationTracking { _ = live.results.count } onChange: { print("changed") }
/// ```
@MainActor
@Observable
public final class LiveResults<Element: Sendable> {
    /// The current results; empty until the first load is done.
    public private(set) var results = Results<Element>()
    /// What the store is doing: loading, live, resyncing, failed.
    public private(set) var state = StoreState.loading(done: 0, total: 0)
    /// The last change set applied, if any.
    public private(set) var lastChange: ChangeSet<Element>?
    /// Whether the first results have arrived.
    public private(set) var isLoaded = false

    @ObservationIgnored private var tokens: [ObservationToken] = []

    /// Starts observing `query` in `store`, its items decoded as `Element`.
    public init(store: JSONStore, query: Query = .all, as type: Element.Type)
    where Element: Decodable {
        tokens.append(store.observe(type, query) { [weak self] change in self?.apply(change) })
        follow(store)
    }

    /// Starts observing `query` in `store`, as `Item`s.
    public init(store: JSONStore, query: Query = .all) where Element == Item {
        tokens.append(store.observe(query) { [weak self] change in self?.apply(change) })
        follow(store)
    }

    private func follow(_ store: JSONStore) {
        tokens.append(store.observeState { [weak self] state in self?.state = state })
    }

    private func apply(_ change: StoreChange<Element>) {
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
