/// The steps of a write and of a recording where a process may die, named so a test can
/// kill a helper process at exactly one of them (`setHook`), and check that whatever
/// reads the store afterwards finds it whole and its history neither short nor doubled.
///
/// Only the test worker sets a hook; without one, reaching a point costs a lock taken and
/// released.
@_spi(Testing) public enum FaultPoint: String, Sendable, CaseIterable {
    /// A batch's files are staged and its history prepared; no item file changed yet.
    case prepared
    /// One of a batch's files was renamed into place (reached once per file).
    case renamed
    /// Every file of a write is in place; its journal entries are not appended yet.
    case placed
    /// Journal entries were written, not yet synced.
    case appended
    /// Journal entries were written and synced.
    case synced
    /// A watcher's recorder made its entries under the store's lock, not yet appended.
    case drafted

    private static let hook = Locked<(@Sendable (FaultPoint) -> Void)?>(nil)

    /// Calls `hook` at every point reached from now on (`nil`: none).
    public static func setHook(_ hook: (@Sendable (FaultPoint) -> Void)?) {
        Self.hook.withLock { $0 = hook }
    }

    /// This point is reached.
    func reached() {
        Self.hook.withLock { $0 }?(self)
    }
}
