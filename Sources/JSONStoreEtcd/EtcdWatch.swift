import JSONStore

/// A watch on the keys under a prefix, from a revision, with previous values and progress
/// notifications: one stream of a client's gRPC connection among its calls (`GRPCWatch`),
/// or the JSON gateway's stream on a connection of its own (`GatewayWatch`), as the client
/// that gave its `Target` speaks.
///
/// One owner reads it (`next`); `interrupt` and `requestProgress` are safe from any thread.
package final class EtcdWatch: @unchecked Sendable {
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

        /// What `answer` says, from either transport.
        init(_ answer: EtcdRPC.WatchResponse) {
            revision = answer.header.revision
            events = answer.events
            compactRevision = answer.compactRevision > 0 ? answer.compactRevision : nil
            cancelReason =
                answer.canceled
                ? (answer.cancelReason.isEmpty ? "cancelled" : answer.cancelReason) : nil
        }
    }

    /// Where a watch goes, as a client says (`EtcdClient.watchTarget`): its gRPC
    /// connection with a token, or an endpoint of the gateway with one.
    package enum Target: Sendable {
        case grpc(GRPCHold, token: String?)
        case gateway(EtcdClient.Endpoint, token: String?, tls: TLSContext?)
    }

    private enum Stream {
        case grpc(GRPCWatch)
        case gateway(GatewayWatch)
    }
    /// Set once; read by its owner and by `interrupt` and `requestProgress` from others
    /// (each stream is safe for those).
    private let stream: Stream

    /// Starts watching the keys from `key` up to `rangeEnd` (not included; `nil`: `key`
    /// alone) from `revision` (inclusive) at `target`; returns once etcd has created the
    /// watch, within `timeout` seconds.
    package init(
        _ target: Target, key: [UInt8], rangeEnd: [UInt8]?, from revision: Int64,
        timeout: Double = 5
    ) throws(EtcdError) {
        switch target {
        case .grpc(let hold, let token):
            stream = .grpc(
                try GRPCWatch(
                    on: hold, key: key, rangeEnd: rangeEnd, from: revision,
                    metadata: token.map { [.init("token", $0)] } ?? [], timeout: timeout))
        case .gateway(let endpoint, let token, let tls):
            stream = .gateway(
                try GatewayWatch(
                    endpoint, key: key, rangeEnd: rangeEnd, from: revision, token: token, tls: tls,
                    timeout: timeout))
        }
    }

    /// Starts watching every key under `prefix` from `revision` at `target`.
    package convenience init(
        _ target: Target, prefix: [UInt8], from revision: Int64, timeout: Double = 5
    ) throws(EtcdError) {
        try self.init(
            target, key: prefix, rangeEnd: EtcdClient.rangeEnd(ofPrefix: prefix), from: revision,
            timeout: timeout)
    }

    /// Starts watching `prefix` through the gateway of `endpoint`.
    package convenience init(
        _ endpoint: EtcdClient.Endpoint, prefix: [UInt8], from revision: Int64,
        token: String? = nil, tls: TLSContext? = nil, timeout: Double = 5
    ) throws(EtcdError) {
        try self.init(
            .gateway(endpoint, token: token, tls: tls), prefix: prefix, from: revision,
            timeout: timeout)
    }

    /// `host:port`, for messages.
    package var endpoint: String {
        switch stream {
        case .grpc(let watch): watch.endpoint
        case .gateway(let watch): watch.endpoint
        }
    }

    /// Whether it can ask for progress (`requestProgress`): on gRPC.
    package var asksProgress: Bool {
        if case .grpc = stream { return true }
        return false
    }

    /// The next answer of the stream, waiting at most `timeout` seconds for it (all of it).
    package func next(timeout: Double) throws(EtcdError) -> Response {
        switch stream {
        case .grpc(let watch): try watch.next(until: Deadline(seconds: timeout))
        case .gateway(let watch): try watch.next(until: Deadline(seconds: timeout))
        }
    }

    /// Asks etcd for its revision now, on gRPC: an answer with no events comes once every
    /// event before it has been sent. Nothing on the gateway, which cannot ask.
    package func requestProgress(timeout: Double = 5) throws(EtcdError) {
        guard case .grpc(let watch) = stream else { return }
        try watch.requestProgress(until: Deadline(seconds: timeout))
    }

    /// Ends the watch.
    package func close() {
        switch stream {
        case .grpc(let watch): watch.close()
        case .gateway(let watch): watch.close()
        }
    }

    /// Wakes the thread waiting in `next` (which then throws); safe from another thread.
    package func interrupt() {
        switch stream {
        case .grpc(let watch): watch.interrupt()
        case .gateway(let watch): watch.interrupt()
        }
    }
}
