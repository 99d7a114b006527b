import JSONStore

/// A store's history on etcd: each key's versions that etcd keeps until it compacts them,
/// replayed by a watch from a revision (its events carry the value before each change).
extension EtcdBackend {
    /// Where the last change the replay must send is not known (a deletion after the
    /// newest value), it ends once etcd has sent nothing for this long after an answer
    /// that was not a full batch: etcd 3.4 marks no end of the changes it replays (it
    /// answers a progress request before them), and sends them every 100 ms, up to
    /// `replayBatch` revisions at a time, each batch read from the whole range left.
    static let replayQuietPeriod = 0.5
    /// How long the replay waits for etcd's first answer before it takes the silence as
    /// "no change": the first batch is read from every revision since the start.
    static let replayFirstAnswerWait = 2.0
    /// The most revisions etcd sends in one answer of a replay; an answer this full means
    /// more are coming.
    static let replayBatch = 1_000

    func history(of id: String?, from revision: Int, reader: JSONReader) throws(StoreError)
        -> RemoteHistory
    {
        let key = id.map(layout.key(of:)) ?? layout.keyPrefix
        let end = id == nil ? EtcdClient.rangeEnd(ofPrefix: layout.keyPrefix) : nil
        var start = Int64(max(revision, 1))
        var compacted: Int64?
        // etcd may compact again while the replay starts: then from the new compaction on.
        for _ in 0..<3 {
            let newest = try withClient { client throws(EtcdError) in
                try client.newestModification(of: key, rangeEnd: end)
            }
            guard start <= newest.revision else { break }
            switch try replay(key, rangeEnd: end, from: start, through: newest) {
            case .events(let events):
                return RemoteHistory(
                    entries: entries(of: events, reader: reader), compacted: compacted.map(Int.init)
                )
            case .compacted(let at):
                // etcd cancels a watch from before its compaction, which it still replays
                // from: one past the store's revision, or not past the start, is not one.
                guard at > start, at <= newest.revision else {
                    throw storeError(
                        EtcdError(
                            endpoint: address,
                            reason:
                                "a compaction revision \(at), not after \(start) and up to \(newest.revision)",
                            kind: .badResponse))
                }
                compacted = at
                start = at
            }
        }
        return RemoteHistory(entries: [], compacted: compacted.map(Int.init))
    }

    func read(_ id: String, at revision: Int, reader: JSONReader) throws(StoreError)
        -> ItemFile.Outcome
    {
        let key = layout.key(of: id)
        // etcd reads revision 0 (or less) as its newest.
        guard revision >= 1 else {
            throw StoreError(
                code: .notFound, message: "no revision \(revision): etcd's begin at 1",
                file: location(of: id), id: id)
        }
        do {
            let found = try withClient { client throws(EtcdError) in
                try client.read(key, revision: Int64(revision)).keyValue
            }
            return found.map { layout.outcome(of: id, $0, reader: reader) } ?? .missing
        } catch {
            throw unavailable(revision, error, id: id)
        }
    }

    /// The revision of etcd's last compaction: nothing before it can be read or replayed
    /// (the change made at it still can). 0 when etcd never compacted.
    func compactedRevision() throws(StoreError) -> Int {
        do {
            _ = try withClient { client throws(EtcdError) in
                try client.read(layout.keyPrefix, revision: 1)
            }
            return 0
        } catch {
            guard Self.saysCompacted(error) else { throw error }
        }
        // A watch from the first revision is cancelled at once with the compaction's.
        switch try replay(layout.keyPrefix, rangeEnd: nil, from: 1, through: (1, nil)) {
        case .compacted(let at): return Int(at)
        case .events: return 0
        }
    }

    /// `error`, from a read at `revision`, as the store says it: compacted away (and
    /// where), or newer than etcd's.
    func unavailable(_ revision: Int, _ error: StoreError, id: String? = nil) -> StoreError {
        let file = id.map(location(of:)) ?? address
        if Self.saysCompacted(error) {
            let at = (try? compactedRevision()).map { " (compacted at \($0))" } ?? ""
            return StoreError(
                code: .notFound,
                message: "etcd has compacted revision \(revision) away\(at): it keeps no "
                    + "older versions", file: file, id: id, underlying: error)
        }
        if (error.underlying as? EtcdError)?.code == .futureRevision {
            return StoreError(
                code: .notFound, message: "revision \(revision) is newer than etcd's",
                file: file, id: id, underlying: error)
        }
        return error
    }

    static func saysCompacted(_ error: StoreError) -> Bool {
        (error.underlying as? EtcdError)?.code == .compacted
    }

    /// What a replay found: the events (up to the revision asked for), or that etcd
    /// compacted the start away.
    private enum Replay {
        case events([EtcdWatch.Event])
        case compacted(Int64)
    }

    /// Every change of the keys from `key` to `rangeEnd` (`nil`: `key` alone) from `start`
    /// up to `newest.revision`, where `newest.modRevision` is the newest value among them
    /// then: its change must arrive, and only deletions may come after it.
    private func replay(
        _ key: [UInt8], rangeEnd: [UInt8]?, from start: Int64,
        through newest: (revision: Int64, modRevision: Int64?)
    ) throws(StoreError) -> Replay {
        let watch = try openWatch(key, rangeEnd: rangeEnd, from: start)
        defer { watch.close() }
        let deadline = Deadline(seconds: max(timeout, 1) * 4)
        let anchor = newest.modRevision.flatMap { $0 >= start ? $0 : nil }
        var events: [EtcdWatch.Event] = []
        var anchored = anchor == nil
        var answered = false  // an answer with events came
        var fullBatch = false  // the last one was as full as etcd makes them: more follow
        while true {
            // One key that exists: its last change is the value it has now.
            if rangeEnd == nil, anchor != nil, anchored { break }
            // One key that does not exist: a last change seen that is not its deletion
            // means more is on its way.
            let ended =
                anchored && !fullBatch
                && (rangeEnd != nil || events.last.map { $0.kind == .delete } ?? true)
            let quiet = answered ? Self.replayQuietPeriod : Self.replayFirstAnswerWait
            // The silence ends the replay only when it is the quiet period's, not the
            // deadline's: a replay cut short by the deadline is an error, never a history.
            let quietEnds = ended && quiet < deadline.remaining
            let response: EtcdWatch.Response
            do {
                response = try watch.next(timeout: quietEnds ? quiet : deadline.remaining)
            } catch {
                if quietEnds && error.kind == .timedOut { break }
                throw storeError(
                    error.kind == .timedOut
                        ? EtcdError(
                            endpoint: address,
                            reason: "etcd did not finish replaying the history within "
                                + "\(deadline.text)", kind: .timedOut)
                        : error)
            }
            if let at = response.compactRevision { return .compacted(at) }
            if let reason = response.cancelReason {
                throw storeError(
                    EtcdError(endpoint: address, reason: "etcd cancelled the replay: \(reason)"))
            }
            if !response.events.isEmpty { answered = true }
            let revisions = Set(response.events.map(\.keyValue.modRevision))
            fullBatch = revisions.count >= Self.replayBatch
            for event in response.events {
                // Past the revision asked for: everything before it has arrived.
                if event.keyValue.modRevision > newest.revision { return .events(events) }
                events.append(event)
                if let anchor, event.keyValue.modRevision >= anchor { anchored = true }
            }
        }
        return .events(events)
    }

    /// A watch on the first endpoint that takes it.
    private func openWatch(_ key: [UInt8], rangeEnd: [UInt8]?, from start: Int64)
        throws(StoreError) -> EtcdWatch
    {
        var failure: StoreError?
        for endpoint in endpoints.indices {
            do throws(StoreError) {
                let target = try withClient { client throws(EtcdError) in
                    try client.watchTarget(endpoint: endpoint)
                }
                do {
                    return try EtcdWatch(
                        target, key: key, rangeEnd: rangeEnd, from: start, timeout: timeout)
                } catch {
                    throw storeError(error)
                }
            } catch {
                failure = error
            }
        }
        throw failure ?? storeError(EtcdError(endpoint: address, reason: "no endpoint"))
    }

    /// `events` as the history's entries: a put of version 1 a creation, a later one a
    /// modification (from the value before it), a delete a deletion; keys that are not
    /// items are left out.
    private func entries(of events: [EtcdWatch.Event], reader: JSONReader) -> [HistoryEntry] {
        events.compactMap { event in
            guard case .item(let id) = layout.entry(event.keyValue.key) else { return nil }
            func members(_ keyValue: EtcdClient.KeyValue?) -> JSONObject? {
                guard let keyValue,
                    case .item(let item) = layout.outcome(
                        of: id, keyValue, reader: reader)
                else { return nil }
                return item.members
            }
            let revision = Int(event.keyValue.modRevision)
            switch event.kind {
            case .delete:
                return .remote(
                    revision: revision, id: id, kind: .deleted, before: members(event.previous),
                    after: nil, source: .etcd)
            case .put:
                let created = event.keyValue.version == 1
                return .remote(
                    revision: revision, id: id, kind: created ? .created : .modified,
                    before: created ? nil : members(event.previous),
                    after: members(event.keyValue), source: .etcd)
            }
        }
    }
}
