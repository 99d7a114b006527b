/// Where a live store's results are in its history: an opaque token to resume an
/// observation from (`JSONStore.observe(_:since:on:_:)`, `list --follow --json --since`).
///
/// On etcd it is the store's revision in decimal (`"1042"`), valid on any machine until
/// etcd compacts it away. On a directory it names this process's follower and its version
/// (`"7f3a9c01:12"`): another process, or this one after its observation ended, cannot
/// resume from it and starts afresh.
public struct StoreRevision: Sendable, Hashable, CustomStringConvertible {
    /// The token as text.
    public let token: String

    /// The revision `token`, as a reader kept it.
    public init(_ token: String) { self.token = token }

    public var description: String { token }
}

/// How an observation that asked to start from a revision began; see `Results.resumption`.
public enum Resumption: Sendable, Equatable {
    /// From that revision: the first callback is an `.update` relative to the results at
    /// it (possibly with no changes), so a subscriber that kept those results is current
    /// once it applies it.
    case resumed(from: StoreRevision)
    /// Afresh: the revision could not be resumed from (compacted away on etcd, another
    /// follower's on a directory), so the first callback is `.initial`. The reason says why.
    case reset(reason: String)
}
