/// The bytes of the item files the pipeline read last, by their fingerprint: what an item
/// that does not decode as an observation's type was parsed from, so its error is located
/// (line, column) in those bytes, never by reading the file again.
///
/// Bounded: the newest reads, `limit` bytes in all; an older read gives way to a newer
/// one. Filled by the directory's reads of changed files (`LiveEngine+Directory`) and a
/// remote source's changes (etcd's watch), read by `ElementCoder` on the pipeline. Its
/// state is guarded by a lock: readers of a batch keep bytes from several threads at once.
package final class RecentBytes: Sendable {
    /// The most bytes kept in all.
    static let limit = 4 << 20

    private struct State {
        var bytes: [Fingerprint: [UInt8]] = [:]
        /// The fingerprints in the order kept, oldest first from `head`.
        var order: [Fingerprint] = []
        var head = 0
        var total = 0
    }

    private let state = Locked(State())

    /// Keeps `bytes`, whose fingerprint is `fingerprint`; bytes over the limit are not kept.
    func keep(_ bytes: [UInt8], as fingerprint: Fingerprint) {
        guard bytes.count <= Self.limit else { return }
        state.withLock { state in
            guard state.bytes.updateValue(bytes, forKey: fingerprint) == nil else { return }
            state.order.append(fingerprint)
            state.total += bytes.count
            while state.total > Self.limit {
                let oldest = state.order[state.head]
                state.head += 1
                state.total -= state.bytes.removeValue(forKey: oldest)?.count ?? 0
            }
            if state.head > 1_024 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    /// Keeps `bytes` when `outcome`, what they were parsed into, is an item.
    package func keep(_ bytes: [UInt8], of outcome: ItemFile.Outcome) {
        if case .item(let item) = outcome { keep(bytes, as: item.fingerprint) }
    }

    /// The bytes kept of `fingerprint`, if they still are.
    func bytes(of fingerprint: Fingerprint) -> [UInt8]? {
        state.withLock { $0.bytes[fingerprint] }
    }
}
