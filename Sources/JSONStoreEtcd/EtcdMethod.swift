/// One of etcd's unary calls as this client makes it: its gRPC method, the JSON
/// gateway's path for the same call, and the types of its request and answer (each read
/// and written both ways: protobuf, and the gateway's JSON).
struct EtcdMethod<
    Request: ProtobufEncodable & GatewayEncodable, Answer: ProtobufDecodable & GatewayDecodable
>:
    Sendable
{
    /// `/etcdserverpb.KV/Range`.
    let path: String
    /// `/v3/kv/range`.
    let gatewayPath: String
    /// Whether the call may be made again when it is not known whether etcd applied it:
    /// reads and authentication may; writes may not, since a compare-and-swap made twice
    /// would fail against its own first write.
    let resendable: Bool
}

/// The calls this client makes.
enum EtcdMethods {
    static let range = EtcdMethod<EtcdRPC.RangeRequest, EtcdRPC.RangeResponse>(
        path: "/etcdserverpb.KV/Range", gatewayPath: "/v3/kv/range", resendable: true)
    static let put = EtcdMethod<EtcdRPC.PutRequest, EtcdRPC.PutResponse>(
        path: "/etcdserverpb.KV/Put", gatewayPath: "/v3/kv/put", resendable: false)
    static let deleteRange = EtcdMethod<EtcdRPC.DeleteRangeRequest, EtcdRPC.DeleteRangeResponse>(
        path: "/etcdserverpb.KV/DeleteRange", gatewayPath: "/v3/kv/deleterange",
        resendable: false)
    static let transaction = EtcdMethod<EtcdRPC.TxnRequest, EtcdRPC.TxnResponse>(
        path: "/etcdserverpb.KV/Txn", gatewayPath: "/v3/kv/txn", resendable: false)
    static let authenticate = EtcdMethod<
        EtcdRPC.AuthenticateRequest, EtcdRPC.AuthenticateResponse
    >(
        path: "/etcdserverpb.Auth/Authenticate", gatewayPath: "/v3/auth/authenticate",
        resendable: true)
    static let status = EtcdMethod<EmptyRequest, EtcdRPC.StatusResponse>(
        path: "/etcdserverpb.Maintenance/Status", gatewayPath: "/v3/maintenance/status",
        resendable: true)
}
