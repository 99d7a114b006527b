/// What an observer receives.
///
/// The model is Realm's `RealmCollectionChange`: `initial` once, then `update`s, and
/// `error` when the store directory is gone or the watcher fails.
///
/// For example:
///
/// ```swift
/// switch change {
/// case .initial(let tasks):
///     show(tasks)
/// case .update(let tasks, let changes):
///     apply(changes.deletions, changes.insertions, changes.modifications, to: tasks)
/// case .error(let error):
///     print(error)
/// }
/// ```
public enum StoreChange<Element: Sendable>: Sendable {
    /// The results when observation starts; first, once per subscription.
    case initial(Results<Element>)
    /// The results after a batch of edits, and what changed since the previous results.
    case update(Results<Element>, ChangeSet<Element>)
    /// The store directory was removed or the watcher failed. Observation goes on: when a
    /// directory appears at the path again, it is read and updates follow.
    case error(StoreError)
}

extension StoreChange {
    /// The revision of the results this change brings (`nil` for `.error`): a token to
    /// resume an observation from.
    public var revision: StoreRevision? {
        switch self {
        case .initial(let results), .update(let results, _): results.revision
        case .error: nil
        }
    }
}
