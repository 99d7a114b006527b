@_spi(Testing) import JSONStore

extension DirectoryMirror {
    /// A write to one side: the item's new bytes (`nil`: delete it), what that side must
    /// hold for it to happen, and the record once it has.
    struct Write {
        let id: String
        let bytes: [UInt8]?
        /// For etcd: the key's `mod_revision` (0: no key).
        var expectedRevision: Int64 = 0
        /// For the directory: the file's etag (`nil`: no file).
        var expectedETag: String?
        /// The record after it: the revision (filled in by etcd's answer when pushed).
        var record: MirrorState.Record
    }

    /// The most files one local batch writes.
    static let batchLimit = 4_096

    /// Does what `steps` decided: records what is equal already, keeps conflicts, writes
    /// etcd's changes into the directory, and sends the directory's to etcd.
    ///
    /// - Throws: the error of an etcd that cannot be reached (what was not sent then is
    ///   sent by the reconcile when it is back).
    ///
    /// - Parameter since: the revision etcd's side was listed at (a reconcile's), so keys
    ///   that were absent then are created with one compare for a whole transaction.
    func execute(_ steps: [Step], settling: Bool = true, since: Int64? = nil) throws {
        try checkDirectory()
        var adopted: [(id: String, record: MirrorState.Record)] = []
        var pulls: [Write] = []
        var pushes: [Write] = []
        for step in steps {
            let etag: String? = if case .file(let etag) = step.local { etag } else { nil }
            let remoteRecord = MirrorState.Record(
                revision: step.remote?.modRevision ?? step.revision,
                etag: step.remote.map { MirrorSide.etag(of: $0.value) })
            switch step.action {
            case .none: continue
            case .adopt:
                adopted.append(
                    (step.id, MirrorState.Record(revision: remoteRecord.revision, etag: etag)))
            case .push(let expected), .deleteRemote(let expected):
                pushes.append(
                    Write(
                        id: step.id, bytes: step.localBytes, expectedRevision: expected,
                        record: MirrorState.Record(revision: 0, etag: etag)))
            case .conflict:
                // Never overwritten unless kept: a version that cannot be kept stays the
                // file, and the next reconcile tries again.
                guard keepConflict(step.id, step.localBytes ?? []) else { continue }
                fallthrough
            case .pull, .deleteLocal:
                pulls.append(
                    Write(
                        id: step.id, bytes: step.remote?.value, expectedETag: etag,
                        record: remoteRecord))
            }
        }
        try state.set(adopted)
        try pull(pulls, settling: settling)
        try push(pushes, settling: settling, since: since)
    }

    /// Keeps `bytes`, the file's version of `id`, as a conflict of the item (once: a
    /// version kept already, by a run that was killed before it took etcd's, is not kept
    /// twice); whether it is kept.
    func keepConflict(_ id: String, _ bytes: [UInt8]) -> Bool {
        do {
            if try store.conflicts(of: id).contains(where: { $0.bytes == bytes }) {
                try state.unkept(id, nil)
                return true
            }
            let kept = try side.keepConflict(of: id, bytes, from: host)
            try state.unkept(id, nil)
            tally.conflicts += 1
            say(
                "mirror: \(Display.escaped(id)): conflict: etcd had another version first; this directory's is kept in \(Display.escaped(kept.file)) (jsonstore resolve \(Display.escaped(id)) --keep mine keeps it, --keep theirs etcd's)"
            )
            return true
        } catch {
            say("mirror: \(error); the file is left as it is")
            try? state.unkept(id, "\(error)")
            return false
        }
    }

    /// Writes etcd's values into the directory, a batch at a time; a write whose file
    /// changed meanwhile is settled again from a fresh read of both sides.
    func pull(_ writes: [Write], settling: Bool) throws {
        var start = 0
        while start < writes.count {
            let chunk = writes[start..<min(start + Self.batchLimit, writes.count)]
            start = chunk.endIndex
            do {
                try writeFiles(chunk)
            } catch {
                for write in chunk {
                    do {
                        try writeFiles([write])
                    } catch let error as StoreError where error.code == .changed {
                        if settling { try settle(write.id) }
                    } catch {
                        say("mirror: \(error); not written")
                    }
                }
            }
        }
    }

    private func writeFiles(_ writes: ArraySlice<Write>) throws {
        try state.intend(
            writes.map {
                ($0.id, .init(toEtcd: false, etag: $0.record.etag, revision: $0.record.revision))
            })
        FaultPoint.filesBefore.reached()
        try side.write(
            writes.lazy.map { .init(id: $0.id, bytes: $0.bytes, expected: $0.expectedETag) })
        FaultPoint.files.reached()
        try state.set(writes.map { ($0.id, $0.record) })
        tally.received += writes.count
    }

    /// Sends the directory's changes to etcd, as few transactions as its limits allow,
    /// each one compare-and-swap on every key it writes; a transaction whose compare fails
    /// is sent again an item at a time, and an item etcd changed meanwhile is settled from
    /// a fresh read of both sides.
    func push(_ writes: [Write], settling: Bool, since: Int64? = nil) throws {
        for run in EtcdWriter.runs(writes.map { $0.bytes?.count ?? 0 }) {
            let chunk = writes[run]
            if try send(chunk, since: since) { continue }
            for write in chunk {
                if try chunk.count > 1 && send([write]) { continue }
                if settling { try settle(write.id) }
            }
        }
    }

    /// One transaction; whether its compares held. A refusal by etcd (a value over its
    /// size limit) is said and skipped; a connection that fails throws.
    private func send(_ writes: ArraySlice<Write>, since: Int64? = nil) throws -> Bool {
        try state.intend(
            writes.map { ($0.id, .init(toEtcd: true, etag: $0.record.etag, revision: 0)) })
        let keys = writes.map { layout.key(of: $0.id) }
        var expected = zip(keys, writes).map { ($0, $1.expectedRevision) }
        var unchanged: (start: [UInt8], end: [UInt8], since: Int64)?
        if let since, writes.count > 1, writes.allSatisfy({ $0.expectedRevision == 0 }),
            let first = keys.min(by: { $0.lexicographicallyPrecedes($1) }),
            let last = keys.max(by: { $0.lexicographicallyPrecedes($1) })
        {
            // Keys absent when etcd was listed: none written since, in one compare.
            expected = []
            unchanged = (first, last + [0], since)
        }
        FaultPoint.etcdBefore.reached()
        let answer: Result<EtcdWriter.Outcome, EtcdError> = Result { () throws(EtcdError) in
            try EtcdWriter(clients: clients).write(
                expecting: expected, unchanged: unchanged,
                zip(keys, writes).map { EtcdClient.Operation(key: $0, value: $1.bytes) })
        }
        let revision: Int64
        switch answer {
        case .success(.changed): return false
        case .success(.written(let written)): revision = written
        case .failure(let error):
            guard error.answered else { throw error }  // no answer: etcd is unreachable
            guard writes.count == 1 else { return false }  // sent again one by one
            say(
                "mirror: \(Display.escaped(writes.first!.id)): etcd refused it (\(error)); kept here only"
            )
            return true
        }
        FaultPoint.etcd.reached()
        try state.set(
            writes.map { ($0.id, MirrorState.Record(revision: revision, etag: $0.record.etag)) })
        tally.sent += writes.count
        return true
    }

    /// Decides `id` again from both sides read now, and does it, once: what changes again
    /// meanwhile comes back as an event of its own.
    func settle(_ id: String) throws {
        let (revision, keyValue) = try read(layout.key(of: id))
        try execute([step(id, remote: keyValue, at: revision)], settling: false)
    }
}
