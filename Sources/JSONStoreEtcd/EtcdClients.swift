import JSONStore

/// The clients of one etcd address: a small pool, each client one connection used by one
/// thread at a time, so any number of threads can make requests. The store's backend, its
/// follower and the mirror take their clients from here; nothing else in the house talks
/// to etcd.
package final class EtcdClients: Sendable {
    package let endpoints: [EtcdClient.Endpoint]
    /// The seconds any request may take.
    package let timeout: Double
    package let credentials: EtcdClient.Credentials?
    /// The TLS context of an `etcds://` address; `nil` in the clear.
    let tls: TLSContext?
    package let transport: EtcdClient.Transport
    private let idle = Locked<[EtcdClient]>([])

    init(
        endpoints: [EtcdClient.Endpoint], timeout: Double,
        credentials: EtcdClient.Credentials? = nil, tls: TLSContext? = nil,
        transport: EtcdClient.Transport = .automatic
    ) {
        precondition(!endpoints.isEmpty, "etcd needs an endpoint")
        self.endpoints = endpoints
        self.timeout = timeout
        self.credentials = credentials
        self.tls = tls
        self.transport = transport
    }

    /// Runs `body` with a client of the pool, which gets it back afterwards (unless the
    /// request failed midway: a connection in an unknown state is not reused).
    package func withClient<R>(_ body: (EtcdClient) throws(EtcdError) -> R) throws(EtcdError)
        -> R
    {
        let client =
            idle.withLock { $0.popLast() }
            ?? EtcdClient(
                endpoints: endpoints, timeout: timeout, credentials: credentials, tls: tls,
                transport: transport)
        let result = try body(client)
        idle.withLock { $0.append(client) }
        return result
    }
}
