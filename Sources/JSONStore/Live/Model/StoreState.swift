/// What a live store is doing, for a status line or a loading overlay.
public enum StoreState: Sendable, Equatable, CustomStringConvertible {
    /// Reading the store for the first time: `done` of `total` files read; `total` is 0
    /// while the directory is listed, and `done` equals it once every file is read and
    /// the first results are being built.
    case loading(done: Int, total: Int)
    /// Up to date; every edit is delivered as it happens.
    case live
    /// Up to date, but changes made now are held back until another writer is done, so
    /// that all it writes reaches observers as one update: `reason` says which (git
    /// writing, with its index lock; a store batch committing).
    case held(reason: String)
    /// Reading the whole directory again, because the kernel dropped events or the
    /// directory came back. Observers keep the last results until it is done.
    case resyncing(reason: String)
    /// The directory is gone or cannot be watched. Observation resumes if it comes back.
    case failed(StoreError)

    public static func == (a: StoreState, b: StoreState) -> Bool {
        switch (a, b) {
        case (.loading(let d1, let t1), .loading(let d2, let t2)): d1 == d2 && t1 == t2
        case (.live, .live): true
        case (.held(let r1), .held(let r2)): r1 == r2
        case (.resyncing(let r1), .resyncing(let r2)): r1 == r2
        case (.failed(let e1), .failed(let e2)): e1.description == e2.description
        default: false
        }
    }

    /// A short name: `loading`, `live`, `held`, `resyncing`, `failed`.
    public var name: String {
        switch self {
        case .loading: "loading"
        case .live: "live"
        case .held: "held"
        case .resyncing: "resyncing"
        case .failed: "failed"
        }
    }

    public var description: String {
        switch self {
        case .loading(let done, let total): "loading \(done)/\(total)"
        case .live: "live"
        case .held(let reason): "held: \(reason)"
        case .resyncing(let reason): "resyncing (\(reason))"
        case .failed(let error): "failed: \(error)"
        }
    }
}
