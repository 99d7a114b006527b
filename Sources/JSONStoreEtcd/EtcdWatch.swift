import JSONStore

/// A watch on every key under a prefix, from a revision: etcd's `/v3/watch` stream on a
/// connection of its own, one `WatchResponse` a chunk.
///
/// Not thread-safe: one owner reads it.
package final class EtcdWatch {
    /// One change of a key.
    package struct Event: Sendable, Equatable {
        package enum Kind: Sendable, Equatable { case put, delete }
        package let kind: Kind
        package let keyValue: EtcdClient.KeyValue
        /// The value before, when the watch asked for it and etcd still had it.
        package let previous: EtcdClient.KeyValue?
    }

    /// What one answer of the stream says.
    package struct Response: Sendable, Equatable {
        /// The store's revision when etcd sent it.
        package let revision: Int64
        /// The events of one revision or more, in order (a transaction's arrive together).
        package let events: [Event]
        /// Set when the watch ended: the revision asked for was compacted away (`compact
        /// revision`), or etcd cancelled it (the reason).
        package let compactRevision: Int64?
        package let cancelReason: String?
        /// A progress notification: no events, only a fresh revision.
        package var isProgress: Bool { events.isEmpty && compactRevision == nil }
    }

    private let connection: HTTPConnection
    /// What the stream has sent past the last whole answer: the gateway ends each answer
    /// with a newline, and a large one can come in several chunks.
    private var pending: [UInt8] = []

    /// Starts watching `prefix` from `revision` (inclusive), with previous values and
    /// progress notifications; returns once etcd has created the watch.
    package convenience init(
        _ endpoint: EtcdClient.Endpoint, prefix: [UInt8], from revision: Int64,
        token: String? = nil, tls: TLSContext? = nil, timeout: Double = 5
    ) throws(EtcdError) {
        try self.init(
            endpoint, key: prefix, rangeEnd: EtcdClient.rangeEnd(ofPrefix: prefix),
            from: revision, token: token, tls: tls, timeout: timeout)
    }

    /// Starts watching the keys from `key` up to `rangeEnd` (not included; `nil`: `key`
    /// alone) from `revision` (inclusive), with previous values and progress
    /// notifications; returns once etcd has created the watch.
    package init(
        _ endpoint: EtcdClient.Endpoint, key: [UInt8], rangeEnd: [UInt8]?, from revision: Int64,
        token: String? = nil, tls: TLSContext? = nil, timeout: Double = 5
    ) throws(EtcdError) {
        // Its creation within `timeout` as a whole; its answers then as `next` is told.
        let deadline = Deadline(seconds: timeout)
        connection = try HTTPConnection(
            host: endpoint.host, port: endpoint.port, tls: tls, until: deadline)
        var create: JSONObject = [
            "key": .string(Base64.encode(key)), "start_revision": .string(String(revision)),
            "prev_kv": true, "progress_notify": true,
        ]
        if let rangeEnd { create["range_end"] = .string(Base64.encode(rangeEnd)) }
        let request: JSONValue = ["create_request": .object(create)]
        // `hasleader`: a member cut off from its leader cancels the watch rather than keep
        // it open and silent, so the follower moves to another member.
        try connection.post(
            "/v3/watch", body: JSONWriter.compact(request), token: token,
            headers: ["Grpc-Metadata-hasleader: true"], until: deadline)
        let head = try connection.head(until: deadline)
        guard head.status == 200, head.chunked else {
            let body = try? connection.body(of: head, until: deadline)
            throw EtcdError(
                endpoint: connection.endpoint,
                reason: "the watch was refused: \(String(decoding: body ?? [], as: UTF8.self))",
                status: head.status)
        }
        // The first answer says the watch was created (or why not).
        let first = try next(until: deadline)
        if let reason = first.cancelReason {
            throw EtcdError(
                endpoint: connection.endpoint, reason: "the watch was cancelled: \(reason)")
        }
    }

    /// The next answer of the stream, waiting at most `timeout` seconds for it (all of it).
    package func next(timeout: Double) throws(EtcdError) -> Response {
        try next(until: Deadline(seconds: timeout))
    }

    private func next(until deadline: Deadline) throws(EtcdError) -> Response {
        var chunk: [UInt8] = []
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                chunk = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                if chunk.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
                break
            }
            guard let more = try connection.chunk(until: deadline) else {
                throw EtcdError(endpoint: connection.endpoint, reason: "the watch stream ended")
            }
            guard pending.count + more.count <= HTTPConnection.maxBody else {
                throw EtcdError(
                    endpoint: connection.endpoint,
                    reason: "an answer of the watch over \(HTTPConnection.maxBody >> 20) MiB",
                    kind: .badResponse)
            }
            pending += more
        }
        guard let value = try? JSONReader(maxDepth: 64, maxSize: .max).read(chunk),
            let result = value["result"]
        else {
            let said = String(decoding: chunk.prefix(200), as: UTF8.self)
            throw EtcdError(endpoint: connection.endpoint, reason: Display.escaped(said))
        }
        let events = (result["events"]?.arrayValue ?? []).compactMap { event -> Event? in
            guard let kv = event["kv"].flatMap(EtcdClient.keyValue) else { return nil }
            let kind: Event.Kind = event["type"]?.stringValue == "DELETE" ? .delete : .put
            return Event(
                kind: kind, keyValue: kv, previous: event["prev_kv"].flatMap(EtcdClient.keyValue))
        }
        let compact = EtcdClient.int64(result["compact_revision"])
        let canceled = result["canceled"] == .bool(true)
        return Response(
            revision: EtcdClient.revision(of: result), events: events,
            compactRevision: compact.flatMap { $0 > 0 ? $0 : nil },
            cancelReason: canceled ? (result["cancel_reason"]?.stringValue ?? "cancelled") : nil)
    }

    /// Ends the watch.
    package func close() { connection.socket.close() }

    /// Wakes the thread waiting in `next` (which then throws); safe from another thread.
    func interrupt() { connection.socket.shutdown() }
}
