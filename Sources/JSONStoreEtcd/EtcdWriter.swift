import JSONStore

/// How the house writes etcd's keys, the store's batches (`EtcdBatch`) and the mirror's
/// uploads alike: compare-and-swap transactions, each on every key it writes, within
/// etcd's limits (or refused by the limit's name), and one rule for a transaction whose
/// answer was lost.
///
/// **The lost answer.** A transaction sent on a connection that failed (or timed out)
/// before etcd answered may have been applied, may be applied yet (its proposal still in
/// etcd's log), or may never be. Sending it again could apply a read-modify-write twice, so
/// it is never sent again as it is. Instead the writer fences it: a key it compared at a
/// `mod_revision` is rewritten with the bytes it holds, if it still has that revision. If
/// the fence is written, the transaction was not applied and never can be (its compare on
/// that key now fails): the outcome is `.changed`, and a batch is made again on what etcd
/// holds. If the fence's compare fails, or the transaction compared no key that existed,
/// nothing tells etcd's own writes from this one's (two writers may write the same bytes),
/// and the error says the transaction may or may not have been applied. The fence costs
/// one revision of that key with its bytes unchanged.
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
    ///   failed; after a lost answer, only when the fence cannot tell (`fence`).
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
            return try fence(after: error, expected: expected)
        }
        return answer.succeeded ? .written(revision: answer.revision) : .changed
    }

    /// What `replace` found, and whether it wrote.
    enum Replacement: Equatable {
        /// Written over what the key held (`nil`: it did not exist).
        case replaced(previous: [UInt8]?)
        /// Not written: `accept` turned down what the key holds.
        case declined(current: [UInt8]?)
        /// Not written: other writers moved the key between each read and write.
        case contended
    }

    /// Sets one key to `value` (`nil`: removes it), compare-and-swap on the `mod_revision`
    /// it has when read, if `accept` takes what it holds; read again and tried again while
    /// other writers move it, `tries` times at most. The lost-answer rule is `write`'s.
    func replace(
        _ key: [UInt8], with value: [UInt8]?, tries: Int = 16,
        if accept: ([UInt8]?) -> Bool = { _ in true }
    ) throws(EtcdError) -> Replacement {
        for _ in 0..<tries {
            let found = try clients.withClient { client throws(EtcdError) in
                try client.get(key).keyValue
            }
            guard accept(found?.value) else { return .declined(current: found?.value) }
            let outcome = try write(
                expecting: [(key, found?.modRevision ?? 0)],
                [EtcdClient.Operation(key: key, value: value)])
            if case .written = outcome { return .replaced(previous: found?.value) }
        }
        return .contended
    }

    /// After the answer `lost` was lost: rewrites a key the transaction compared at a
    /// revision with the bytes it holds, if it has that revision still; `.changed` when that
    /// was done (not applied, and it never will be), else throws `lost`: it cannot be told.
    private func fence(
        after lost: EtcdError, expected: [(key: [UInt8], modRevision: Int64)]
    ) throws(EtcdError) -> Outcome {
        // `lost` says it may or may not have been applied, and is not made again.
        guard let (key, revision) = expected.first(where: { $0.modRevision > 0 }) else {
            throw lost
        }
        let fenced: Bool
        do {
            fenced = try clients.withClient { client throws(EtcdError) -> Bool in
                // Not at that revision: applied, or written by another since.
                guard let now = try client.read(key).keyValue, now.modRevision == revision else {
                    return false
                }
                return try client.transaction(
                    expecting: [(key, revision)], [.init(key: key, value: now.value)]
                ).succeeded
            }
        } catch {
            throw lost
        }
        guard fenced else { throw lost }
        return .changed
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
