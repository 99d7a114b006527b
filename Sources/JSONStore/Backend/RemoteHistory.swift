/// The changes a store other than a directory still keeps (etcd: each key's versions
/// since its last compaction), as `RemoteBackend.history` reads them.
package struct RemoteHistory: Sendable {
    /// The changes read, oldest first.
    package var entries: [HistoryEntry]
    /// The newest revision the store has discarded the history up to (etcd's compaction
    /// revision), when it was reached: nothing at or before it can be read.
    package var compacted: Int?

    package init(entries: [HistoryEntry], compacted: Int?) {
        self.entries = entries
        self.compacted = compacted
    }
}
