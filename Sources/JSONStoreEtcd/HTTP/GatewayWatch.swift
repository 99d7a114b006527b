import JSONStore

/// A watch through etcd's JSON gateway: the `/v3/watch` stream on a connection of its own,
/// one `WatchResponse` a line (which a large one may spread over several chunks). It
/// cannot ask for progress: etcd sends it when the watch has been quiet a while.
///
/// Not thread-safe: one owner reads it (`interrupt` is safe from any thread).
final class GatewayWatch {
    private let connection: HTTPConnection
    /// What the stream has sent past the last whole answer: the gateway ends each answer
    /// with a newline, and a large one can come in several chunks.
    private var pending: [UInt8] = []

    /// Starts watching the keys from `key` up to `rangeEnd` (not included; `nil`: `key`
    /// alone) from `revision` (inclusive), with previous values and progress
    /// notifications; returns once etcd has created the watch.
    init(
        _ endpoint: EtcdClient.Endpoint, key: [UInt8], rangeEnd: [UInt8]?, from revision: Int64,
        token: String?, tls: TLSContext?, timeout: Double
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

    /// The next answer of the stream, waiting until `deadline` for it (all of it).
    func next(until deadline: Deadline) throws(EtcdError) -> EtcdWatch.Response {
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
        do {
            return EtcdWatch.Response(try EtcdRPC.WatchResponse(json: result))
        } catch {
            throw EtcdError(
                endpoint: connection.endpoint,
                reason: "a watch's answer that does not read: \(error.reason)", kind: .badResponse)
        }
    }

    /// `host:port`, for messages.
    var endpoint: String { connection.endpoint }

    /// Ends the watch.
    func close() { connection.socket.close() }

    /// Wakes the thread waiting in `next` (which then throws); safe from another thread.
    func interrupt() { connection.socket.shutdown() }
}
