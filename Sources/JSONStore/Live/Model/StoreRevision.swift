/// Where a live store's results are in its history: an opaque token to resume an
/// observation from (`JSONStore.observe(_:since:on:_:)`, `list --follow --json --since`).
///
/// On etcd it is the store's revision in decimal (`"1042"`), valid on any machine until
/// etcd compacts it away. On a directory that keeps history it is the journal's revision
/// and the start of the journal's name (`"41@9f3a0c1d2b4e5f60"`), valid in every process
/// until the journal prunes it; `"41"` alone, as `jsonstore log` shows revisions, names
/// the revision of the store's journal. Observations that carry revisions (those started
/// with `since`, `.now` included) are sent each version once the journal has recorded it;
/// the others are sent it at once, and before the journal has recorded it, its token
/// names this process's follower and its version (`"7f3a9c01:12"`), which only this
/// observed life resumes from.
public struct StoreRevision: Sendable, Hashable, CustomStringConvertible {
    /// The token as text.
    public let token: String

    /// The revision `token`, as a reader kept it.
    public init(_ token: String) { self.token = token }

    public var description: String { token }

    /// The results as they are now, as a revision to observe from: the first callback is
    /// `.initial`, and on a directory that keeps history every revision after is the
    /// journal's, which any process resumes from.
    public static let now = StoreRevision("now")
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
