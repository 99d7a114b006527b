import JSONStore

/// Rows that changed a moment ago: inserted ones green, modified ones yellow, for a
/// second each.
struct Highlights {
    enum Kind { case inserted, modified }

    /// How long a row stays highlighted, in seconds.
    static let duration = 1.0

    private(set) var rows: [UTF8Key: (kind: Kind, until: Double)] = [:]

    /// Highlights what `changes` inserted and modified, from `now`.
    mutating func mark(_ changes: ChangeSet<Item>, now: Double) {
        for item in changes.inserted { rows[UTF8Key(item.id)] = (.inserted, now + Self.duration) }
        for modification in changes.modified {
            rows[UTF8Key(modification.new.id)] = (.modified, now + Self.duration)
        }
    }

    /// The highlight of the item `id` at `now`, if it has one.
    func kind(of id: String, now: Double) -> Kind? {
        guard let highlight = rows[UTF8Key(id)], highlight.until > now else { return nil }
        return highlight.kind
    }

    /// Drops the highlights that have run out; returns when the next one does, if any.
    mutating func expire(now: Double) -> Double? {
        rows = rows.filter { $0.value.until > now }
        return rows.values.map(\.until).min()
    }
}

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
        case .live, .failed:
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
