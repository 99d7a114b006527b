/// The store's state and who follows it, readable and settable from any thread: loading
/// progress is reported from a timer while the pipeline's queue is busy reading.
final class StatusBoard: Sendable {
    /// A follower of the state.
    struct Observer: Sendable {
        let flag: CancellationFlag
        let delivery: Delivery
        let callback: @Sendable (StoreState) -> Void

        func send(_ state: StoreState) {
            delivery.send(state, to: callback, unless: flag)
        }
    }

    /// Guards the state and the observers; a pthread mutex, so ThreadSanitizer sees it.
    private let status = Locked<(state: StoreState, observers: [ObjectIdentifier: Observer])>(
        (.loading(done: 0, total: 0), [:]))

    var state: StoreState { status.withLock { $0.state } }

    /// How the store is watched, and why (`JSONStore.watching`).
    private let note = Locked(
        (watching: "not watched: nothing observes the store yet", git: String?.none))
    var watching: String {
        get {
            note.withLock { note in note.git.map { note.watching + "; " + $0 } ?? note.watching }
        }
        set { note.withLock { $0.watching = newValue } }
    }

    /// Why git no longer holds publications back (a stale lock), while that lasts.
    var gitNote: String? {
        get { note.withLock { $0.git } }
        set { note.withLock { $0.git = newValue } }
    }

    var hasObservers: Bool { status.withLock { !$0.observers.isEmpty } }

    /// Adds `observer` and sends it the current state.
    func add(_ observer: Observer, id: ObjectIdentifier) {
        status.withLock { status in
            status.observers[id] = observer
            observer.send(status.state)
        }
    }

    func remove(_ id: ObjectIdentifier) {
        _ = status.withLock { $0.observers.removeValue(forKey: id) }
    }

    /// Sets the state and tells the observers, unless it is a late progress report: a
    /// loading count never overwrites what the pipeline set after it, nor a larger count.
    func set(_ state: StoreState) {
        status.withLock { status in
            guard status.state != state else { return }
            if case .loading(let done, let total) = state {
                guard case .loading(let before, let totalBefore) = status.state else { return }
                if total == totalBefore && done < before { return }
            }
            status.state = state
            for observer in status.observers.values { observer.send(state) }
        }
    }

    /// Back to the state of a store nobody has observed yet.
    func reset() {
        status.withLock { $0.state = .loading(done: 0, total: 0) }
    }
}

extension StoreState {
    var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }
}
