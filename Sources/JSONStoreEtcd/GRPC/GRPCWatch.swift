import JSONStore

/// A watch on etcd's `Watch` stream over gRPC: one stream of a `GRPCConnection`, beside
/// whatever else the connection carries, that asks for progress when its owner wants to
/// know how far etcd has come (`requestProgress`: the answer comes after every event
/// before it, so a revision it gives is never followed by older events).
///
/// The same answers as the gateway's watch (`EtcdWatch.Response`), one message each.
/// Safe to use from several threads: one reads (`next`), others may ask for progress or
/// `interrupt` it.
final class GRPCWatch: Sendable {
    /// Keeps the connection open while the watch lives.
    private let hold: GRPCHold
    private let stream: GRPCStream
    let endpoint: String

    /// Starts watching the keys from `key` up to `rangeEnd` (not included; `nil`: `key`
    /// alone) from `revision` (inclusive), with previous values and progress
    /// notifications, on the connection `hold` keeps; returns once etcd has created the
    /// watch, within `timeout` seconds. `metadata` goes with the call (the token).
    init(
        on hold: GRPCHold, key: [UInt8], rangeEnd: [UInt8]?, from revision: Int64,
        metadata: [HPACK.Field] = [], timeout: Double = 5
    ) throws(EtcdError) {
        let deadline = Deadline(seconds: timeout)
        let connection = hold.connection
        self.hold = hold
        endpoint = connection.authority
        // `hasleader`: a member cut off from its leader cancels the watch rather than keep
        // it open and silent, so the follower moves to another member. No deadline: the
        // stream lives as long as the watch.
        stream = try connection.open(
            "/etcdserverpb.Watch/Watch", metadata: metadata + [.init("hasleader", "true")],
            until: .never)
        do throws(EtcdError) {
            try stream.send(
                EtcdRPC.WatchRequest.create(
                    key: key, rangeEnd: rangeEnd ?? [], startRevision: revision,
                    progressNotify: true
                ).encoded, until: deadline)
            // The first answer says the watch was created (or why not).
            let first = try answer(until: deadline)
            if first.canceled {
                throw EtcdError(
                    endpoint: endpoint,
                    reason: "the watch was cancelled: \(first.cancelReason)")
            }
            guard first.created else {
                throw connection.bad("a watch's first answer that does not say it was created")
            }
        } catch {
            stream.cancel()
            throw error
        }
    }

    /// The next answer, waiting until `deadline` (all of it).
    func next(until deadline: Deadline) throws(EtcdError) -> EtcdWatch.Response {
        EtcdWatch.Response(try answer(until: deadline))
    }

    /// Asks etcd for its revision now: an answer with no events comes once every event
    /// before it has been sent.
    func requestProgress(until deadline: Deadline) throws(EtcdError) {
        try stream.send(EtcdRPC.WatchRequest.progress.encoded, until: deadline)
    }

    /// Ends the watch: its stream cancelled (the connection goes on).
    func close() { stream.cancel() }

    /// Wakes the thread waiting in `next` (which then throws); safe from any thread.
    func interrupt() { stream.interrupt() }

    private func answer(until deadline: Deadline) throws(EtcdError) -> EtcdRPC.WatchResponse {
        guard let message = try stream.receive(until: deadline) else {
            throw EtcdError(endpoint: endpoint, reason: "the watch stream ended")
        }
        do {
            return try EtcdRPC.WatchResponse(decoding: message)
        } catch {
            throw EtcdError(
                endpoint: endpoint, reason: "a watch's answer that does not decode: \(error)",
                kind: .badResponse)
        }
    }
}
