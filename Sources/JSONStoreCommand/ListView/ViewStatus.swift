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
    /// When the rows began to be observed in a new order (`s`, `S`), until its first
    /// results come.
    private(set) var sortingSince: Double?

    mutating func set(_ state: StoreState, now: Double) {
        switch state {
        case .loading, .resyncing:
            if busySince == nil { busySince = now }
        case .live, .held, .failed:
            busySince = nil
        }
        self.state = state
    }

    /// The first results came (of the store, or of a new order).
    mutating func didLoad() {
        loaded = true
        sortingSince = nil
    }

    mutating func sortStarted(now: Double) { sortingSince = now }

    /// No new order is coming (the observation failed): the list stays as it was.
    mutating func sortEnded() { sortingSince = nil }

    /// Whether some work is under way whose progress is drawn, so the spinner must turn.
    var isBusy: Bool { busySince != nil || sortingSince != nil }

    /// What the header says of the state: the phase of loading (the files listed, read, the
    /// list built) with a spinner, a new order being made, why it is held or resyncing, or
    /// the state's name.
    func headerText(now: Double) -> String {
        let spin = ListModel.spinner[Int(now * 10) % ListModel.spinner.count]
        if case .loading(let done, let total) = state {
            return "loading \(spin) " + Self.phase(done: done, total: total)
        }
        if case .held(let reason) = state { return "held: " + Display.escaped(reason) }
        if case .resyncing(let reason) = state { return "resyncing: " + Display.escaped(reason) }
        if sortingSince != nil { return "sorting \(spin)" }
        return state.name
    }

    /// `listing the files`, `40,700 / 100,000`, `100,000 / 100,000, building the list`.
    static func phase(done: Int, total: Int) -> String {
        guard total > 0 else { return "listing the files" }
        let counts = "\(ListModel.number(done)) / \(ListModel.number(total))"
        return done < total ? counts : counts + ", building the list"
    }

    mutating func changed(at clock: String) { lastChange = clock }

    var isLoading: Bool {
        if case .loading = state { return true }
        return false
    }

    /// Whether the overlay shows at `now`: loading, resyncing or sorting for longer than
    /// `overlayDelay`.
    func showsOverlay(now: Double) -> Bool {
        let since = [busySince, sortingSince].compactMap { $0 }.min()
        return since.map { now - $0 >= Self.overlayDelay } ?? false
    }
}
