import JSONStore

/// How the house writes etcd's keys, the store's batches (`EtcdBatch`) and the mirror's
/// uploads alike: compare-and-swap transactions, each on every key it writes, within
/// etcd's limits (or refused by the limit's name), and one rule for a transaction whose
/// answer was lost.
///
/// **The lost answer.** A transaction sent on a connection that failed before etcd
/// answered may or may not have been applied; sending it again could apply it twice (a
/// read-modify-write counted twice). So it is never sent again: the keys it writes are
/// read back. Compare-and-swap makes that conclusive in the usual case: if any key still
/// has the `mod_revision` the transaction compared, it was not applied; if every key holds
/// what it wrote, at one revision newer than every compared one, it was. Anything else
/// (another writer has written those keys since) leaves it unknown, and the error says so.
struct EtcdWriter {
    let clients: EtcdClients

    /// The most operations and bytes one transaction carries: etcd's defaults are 128
    /// operations (`--max-txn-ops`) and 1.5 MiB a request (`--max-request-bytes`); values
    /// travel in base64 on the gateway, so a run of writes stays within 1 MiB of values.
    static let limits = (operations: 128, bytes: 1 << 20)

    /// What a compare-and-swap transaction did.
    enum Outcome: Equatable {
        /// Every compare held: written at this revision.
        case written(revision: Int64)
        /// A compare failed: nothing was written.
        case changed
    }

    /// Writes `operations` if every key of `expected` has its `mod_revision` (0: absent)
    /// and, with `unchanged`, no key from its start up to its end was written after its
    /// revision.
    ///
    /// - Throws: `EtcdError`: etcd's refusal (`code` names a limit), or a connection that
    ///   failed; after a lost answer, only when reading back cannot tell (`lostAnswer`).
    func write(
        expecting expected: [(key: [UInt8], modRevision: Int64)],
        unchanged: (start: [UInt8], end: [UInt8], since: Int64)? = nil,
        _ operations: [EtcdClient.Operation]
    ) throws(EtcdError) -> Outcome {
        let answer: (revision: Int64, succeeded: Bool)
        do {
            answer = try clients.withClient { client throws(EtcdError) in
                try client.transaction(expecting: expected, unchanged: unchanged, operations)
            }
        } catch {
            // Answered (a refusal), or not taken (GOAWAY, a refused stream): not applied.
            guard !error.answered, error.kind != .notTaken else { throw error }
            var compared = Dictionary(expected.map { ($0.key, $0.modRevision) }) { first, _ in first
            }
            if let (start, end, _) = unchanged {
                // Absent when compared: a key of the range it writes and did not compare.
                for operation in operations where compared[operation.key] == nil {
                    if !operation.key.lexicographicallyPrecedes(start),
                        operation.key.lexicographicallyPrecedes(end)
                    {
                        compared[operation.key] = 0
                    }
                }
            }
            return try afterLostAnswer(error, compared: compared, operations)
        }
        return answer.succeeded ? .written(revision: answer.revision) : .changed
    }

    /// Reads back the keys a transaction whose answer was lost writes, and tells from them
    /// whether it was applied.
    private func afterLostAnswer(
        _ lost: EtcdError, compared: [[UInt8]: Int64], _ operations: [EtcdClient.Operation]
    ) throws(EtcdError) -> Outcome {
        var revisions = Set<Int64>()
        var applied = true
        for operation in operations {
            let now: EtcdClient.KeyValue?
            do {
                now = try clients.withClient { client throws(EtcdError) in
                    try client.read(operation.key).keyValue
                }
            } catch {
                throw lost  // etcd cannot be asked: the first error says what happened
            }
            let before = compared[operation.key]
            if let before, (now?.modRevision ?? 0) == before, operation.value != nil || before > 0 {
                return .changed  // a key it writes is as compared: not applied
            }
            if let value = operation.value {
                guard let now, now.value == value else {
                    applied = false
                    continue
                }
                revisions.insert(now.modRevision)
            } else if now != nil {
                applied = false
            }
        }
        let newest = compared.values.max() ?? 0
        if applied, revisions.count <= 1, (revisions.first ?? .max) > newest {
            if let revision = revisions.first { return .written(revision: revision) }
        }
        throw EtcdError(
            endpoint: lost.endpoint,
            reason:
                "\(lost.reason); the transaction's answer was lost and its keys were written since, so whether it was applied cannot be told: read them back",
            kind: lost.kind)
    }

    /// `sizes` (each write's bytes) cut into runs, in order, each within `limits`.
    static func runs(_ sizes: [Int]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        while start < sizes.count {
            var end = start
            var bytes = 0
            while end < sizes.count, end - start < limits.operations,
                end == start || bytes + sizes[end] <= limits.bytes
            {
                bytes += sizes[end]
                end += 1
            }
            runs.append(start..<end)
            start = end
        }
        return runs
    }

    /// The limit of etcd's that `error` says a request went over, by its option's name.
    static func limit(of error: EtcdError) -> String? {
        switch error.code {
        case .requestTooLarge: "its --max-request-bytes, 1.5 MiB by default"
        case .tooManyOperations: "its --max-txn-ops, 128 by default"
        default: nil
        }
    }
}
