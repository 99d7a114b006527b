/// The steps of a write, of a recording and of a mirror's sync where a process may die, named so a test can
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
    /// A mirror's write to the directory: its intent journaled, the files not written
    /// yet; then the files written, not yet recorded in the mirror's state.
    case filesBefore = "files-before"
    case files
    /// A mirror's write to etcd: its intent journaled, not sent yet; then done in etcd,
    /// not yet recorded.
    case etcdBefore = "etcd-before"
    case etcd

    private static let hook = Locked<(@Sendable (FaultPoint) -> Void)?>(nil)

    /// Calls `hook` at every point reached from now on (`nil`: none).
    public static func setHook(_ hook: (@Sendable (FaultPoint) -> Void)?) {
        Self.hook.withLock { $0 = hook }
    }

    /// This point is reached.
    package func reached() {
        Self.hook.withLock { $0 }?(self)
    }
}
