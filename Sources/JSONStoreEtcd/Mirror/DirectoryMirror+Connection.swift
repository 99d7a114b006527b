import JSONStore

extension DirectoryMirror {
    /// The follower listed etcd (at the start, or again after a compaction): reconciles the
    /// directory with it and follows the directory; returns the revision listed at and the
    /// prefix's number of keys. Called on the queue.
    func listed(_ reason: String?) throws -> (revision: Int64, keys: Int64) {
        guard !isStopped else { throw CancellationError() }
        let before = tally
        let (revision, keys) = try reconcile()
        relisting = nil
        try state.compact(sync: false)  // state.json says what is synced (doctor reads it)
        let wasOffline = answered()
        let sent = tally.sent - before.sent
        let received = tally.received - before.received
        let conflicts = tally.conflicts - before.conflicts
        let unkept = state.unkept.count
        let waiting =
            unkept == 0
            ? "" : ", \(Self.count(unkept, "conflict")) could not be kept (see jsonstore check)"
        let again = reason.map { " (listed again: \($0))" } ?? ""
        say(
            "mirror: \(wasOffline ? "etcd is back; " : "")in sync with \(address.description) at revision \(revision)\(again): \(Self.count(state.records.values.count { $0.etag != nil }, "item")), \(sent) sent, \(received) received, \(Self.count(conflicts, "conflict"))\(waiting)"
        )
        observeDirectory()
        if !watchesSchema {
            watchesSchema = true
            watchLocalSchema()
        }
        return (revision, keys)
    }

    /// The follower is about to follow etcd again after it was lost, from the revision
    /// after the last one the mirror took: checks first that etcd is the one synced with
    /// (else returns why, and the follower lists again: the reconcile sets the records
    /// aside), then sends the directory's edits made meanwhile. Nothing of etcd's comes
    /// before this returns. Called on the queue.
    ///
    /// - Throws: when etcd cannot be asked (the follower tries again later).
    func resuming() throws -> String? {
        guard !isStopped, !failed else { throw CancellationError() }
        do {
            _ = try read(layout.schemaKey)
        } catch let another as AnotherEtcd {
            relisting = another.why
            return another.why
        }
        schemaSeen = nil  // looked at again: a change that could not be sent goes now
        if answered() {
            say("mirror: etcd is back; following \(address.description) again")
        }
        localLoaded(results)
        return nil
    }

    /// etcd stopped answering, or a sync failed here: say so once; the follower tries
    /// again with a capped backoff (`following`: it is the follower that lost etcd; else a
    /// request of the mirror's did, and the follower follows again from where it was).
    ///
    /// `relist`: a change of etcd's could not be taken (the follower has gone past it), so
    /// the follower lists again and the reconcile takes it.
    func lost(_ error: any Error, following fromFollower: Bool = false, relist: Bool = false) {
        guard !isStopped else { return }
        if let stop = error as? Stop { return fail(stop.error) }
        let etcd = error as? EtcdError ?? (error as? StoreError)?.underlying as? EtcdError
        if let etcd, etcd.kind.isPermanent, let onPermanentError {
            stopped.withLock { $0 = true }
            following.withLock { $0?.stop() }
            onPermanentError(etcd)
            return
        }
        if let another = error as? AnotherEtcd { return self.relist(because: another.why) }
        let unreachable = (error as? EtcdError).map { !$0.answered } ?? false
        let problem =
            unreachable
            ? "mirror: etcd is unreachable (\(error)); edits stay in \(store.path) and are sent when it is back"
            : "mirror: could not sync (\(error)); trying again"
        if !(unreachable && online == false), problem != lastProblem { say(problem) }
        lastProblem = problem
        online = false
        schemaSeen = nil  // a change that could not be sent is looked at again
        if relist {
            self.relist(because: "a change of etcd's could not be taken here")
        } else if !fromFollower {
            following.withLock { $0?.restart() }
        }
    }

    /// Has the follower list etcd again, taking none of its changes nor sending the
    /// directory's until the listing's reconcile.
    func relist(because why: String) {
        relisting = why
        following.withLock { $0?.restart(relisting: why) }
    }

    /// etcd answered: the mirror is online again; returns whether it was offline.
    private func answered() -> Bool {
        defer {
            online = true
            lastProblem = nil
        }
        return online == false
    }

    /// The key `key` read now, with the revision etcd answered at.
    ///
    /// - Throws: `AnotherEtcd` when etcd is not the one the records were synced with (the
    ///   listing's reconcile sets them aside), or etcd's error.
    func read(_ key: [UInt8]) throws -> (revision: Int64, keyValue: EtcdClient.KeyValue?) {
        let (revision, cluster, keyValue) = try etcd { client throws(EtcdError) in
            try client.read(key)
        }
        if let why = state.foreignness(of: MirrorState.Origin(cluster: cluster, revision: revision))
        {
            throw AnotherEtcd(why: why)
        }
        return (revision, keyValue)
    }
}
