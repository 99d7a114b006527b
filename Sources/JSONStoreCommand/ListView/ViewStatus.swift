import JSONStore

/// What the list view knows of the store's state: loaded yet, live or busy (and since
/// when, for the overlay), and when the last change came.
struct ViewStatus {
    /// How long loading must last before the overlay appears, in seconds, so a small
    /// store never flickers.
    static let overlayDelay = 0.15

    private(set) var loaded = false
    private(set) var state = StoreState.loading(done: 0, total: 0)
    /// When the current loading or resync began (monotonic seconds).
    private(set) var busySince: Double?
    /// The time of day of the last change, for the header.
    private(set) var lastChange: String?

    mutating func set(_ state: StoreState, now: Double) {
        switch state {
        case .loading, .resyncing:
            if busySince == nil { busySince = now }
        case .live, .held, .failed:
            busySince = nil
        }
        self.state = state
    }

    mutating func didLoad() { loaded = true }

    mutating func changed(at clock: String) { lastChange = clock }

    var isLoading: Bool {
        if case .loading = state { return true }
        return false
    }

    /// Whether the overlay shows at `now`.
    func showsOverlay(now: Double) -> Bool {
        busySince.map { now - $0 >= Self.overlayDelay } ?? false
    }
}
