/// The changes a store other than a directory still keeps (etcd: each key's versions
/// since its last compaction), as `RemoteBackend.history` reads them.
package struct RemoteHistory: Sendable {
    /// The changes read, oldest first.
    package var entries: [HistoryEntry]
    /// The revision the store has discarded the history before (etcd's compaction
    /// revision), when the read reached it: nothing before it can be read.
    package var compacted: Int?

    package init(entries: [HistoryEntry], compacted: Int?) {
        self.entries = entries
        self.compacted = compacted
    }
}
