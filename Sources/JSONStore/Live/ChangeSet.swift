/// What an observer receives.
///
/// The model is Realm's `RealmCollectionChange`: `initial` once, then `update`s, and
/// `error` when the store directory is gone or the watcher fails.
///
/// For example:
///
/// ```swift
/// switch change {
/// case .initial(let results):
///     show(results)
/// case .update(let results, let changes):
///     apply(changes.deletions, changes.insertions, changes.modifications, to: results)
/// case .error(let error):
///     print(error)
/// }
/// ```
public enum StoreChange: Sendable {
    /// The results when observation starts; first, once per subscription.
    case initial(Results)
    /// The results after a batch of edits, and what changed since the previous results.
    case update(Results, ChangeSet)
    /// The store directory was removed or the watcher failed. Observation goes on: when a
    /// directory appears at the path again, it is read and updates follow.
    case error(StoreError)
}

/// How results changed from one version to the next.
///
/// The index arrays are Realm's, and UIKit's `performBatchUpdates` convention:
/// `deletions` and `modifications` are indices in the previous results, `insertions` in
/// the new results, each ascending. Removing `deletions` (descending) and then inserting
/// `insertions` (ascending) turns the previous results into the new ones exactly.
///
/// Beyond Realm: `modificationsNew` (the modified rows' new indices), `moves` (items that
/// changed position because their sort value changed; they are also in `deletions` and
/// `insertions`), and the items themselves.
public struct ChangeSet: Sendable {
    /// A row that moved: its index in the previous results and in the new ones.
    public struct Move: Sendable, Hashable {
        public let from: Int
        public let to: Int

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// A modified item: its previous and its new value (equal when only its validity
    /// changed: see `Results.error(for:)`).
    public struct Modification: Sendable, Hashable {
        public let old: Item
        public let new: Item
    }

    /// The store version of the new results.
    public let version: Int
    /// Indices in the previous results of the rows removed, ascending.
    public let deletions: [Int]
    /// Indices in the new results of the rows added, ascending.
    public let insertions: [Int]
    /// Indices in the previous results of the rows changed in place, ascending.
    public let modifications: [Int]
    /// The same rows' indices in the new results, in the same order.
    public let modificationsNew: [Int]
    /// Rows that changed position because their sort value changed.
    public let moves: [Move]
    /// The items added, in the order of `insertions`.
    public let inserted: [Item]
    /// The items changed in place, in the order of `modifications`.
    public let modified: [Modification]
    /// The items removed (their last value), in the order of `deletions`.
    public let deleted: [Item]
    /// Files that became invalid, or whose error changed, in this batch.
    public let invalid: [InvalidFile]
    /// Names of files that were invalid and no longer are (fixed or removed).
    public let resolved: [String]

    /// Whether nothing changed; such an update is never delivered.
    public var isEmpty: Bool {
        deletions.isEmpty && insertions.isEmpty && modifications.isEmpty && invalid.isEmpty
            && resolved.isEmpty
    }
}
