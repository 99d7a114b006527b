import JSONStore

extension JSONStore {
    /// Opens the store at the key prefix `prefix` of the etcd cluster at `endpoints`.
    ///
    /// Every API works on it as on a directory: `load`, `item`, `put`, `update`,
    /// `delete`, `write { }`, `observe`, `changes`, `LiveResults`, `state`, `synchronize`.
    /// The item `tea` is the key `<prefix>/tea`, its value the item's JSON as its file
    /// would hold it. A `write { }` batch is one etcd transaction (all or nothing, visible
    /// at once), and it writes only if nothing it read has changed since, so `update` is a
    /// compare-and-swap, run again on a conflict.
    ///
    /// For example:
    ///
    /// ```swift
    /// let store = try JSONStore(etcd: ["127.0.0.1:2379"], prefix: "tasks")
    /// try store.put("tea", ["title": "Make tea"])
    /// ```
    ///
    /// - Parameters:
    ///   - endpoints: `host:port` of one or more members; requests move to the next when
    ///     one cannot be reached.
    ///   - prefix: the key prefix, without a trailing `/` (one is added).
    ///   - user: the user to authenticate as, when etcd has authentication enabled, with
    ///     its `password`.
    ///   - tls: for an etcd that serves TLS: the CA certificates to trust and the client
    ///     certificate to present (etcdctl's `--cacert`, `--cert`, `--key`); `nil` for
    ///     plain HTTP.
    ///   - timeout: the seconds any request may take.
    /// - Throws: `StoreError` with code `.storeUnavailable` when no endpoint answers (the
    ///   error names the last one tried and why), for a malformed endpoint, and for an
    ///   empty prefix.
    public convenience init(
        etcd endpoints: [String], prefix: String, user: String? = nil, password: String = "",
        tls: EtcdTLS? = nil, options: Options = Options(), timeout: Double = 5
    ) throws(StoreError) {
        let parsed = try EtcdAddress.endpoints(endpoints)
        try self.init(
            etcd: EtcdAddress(endpoints: parsed, prefix: prefix, secure: tls != nil),
            credentials: user.map { .init(user: $0, password: password) }, tls: tls,
            options: options, timeout: timeout)
    }

    /// Opens the etcd store at `address` (see `EtcdAddress`).
    package convenience init(
        etcd address: EtcdAddress, credentials: EtcdClient.Credentials? = nil, tls: EtcdTLS? = nil,
        options: Options = Options(), timeout: Double = 5
    ) throws(StoreError) {
        let context = try address.tlsContext(tls)
        let backend = EtcdBackend(
            endpoints: address.endpoints, prefix: address.prefix, timeout: timeout,
            credentials: credentials, tls: context, transport: address.transport)
        guard !backend.layout.prefix.isEmpty else {
            throw StoreError(
                code: .storeUnavailable,
                message: "an etcd store needs a key prefix, as in etcd://127.0.0.1:2379/tasks",
                file: backend.address)
        }
        // As a directory store checks its directory: a wrong address fails here, clearly.
        _ = try backend.withClient { client throws(EtcdError) in
            try client.probe(prefix: backend.layout.keyPrefix)
        }
        self.init(remote: backend, options: options)
    }
}

extension EtcdAddress {
    /// The TLS context an `etcds://` address connects with (`tls`, else the system's CA
    /// certificates); `nil` for plain HTTP.
    ///
    /// - Throws: `StoreError` with code `.storeUnavailable` naming the address and why.
    func tlsContext(_ tls: EtcdTLS?) throws(StoreError) -> TLSContext? {
        guard secure else { return nil }
        do {
            return try TLSContext(tls ?? EtcdTLS())
        } catch {
            throw StoreError(
                code: .storeUnavailable, message: error.reason, file: description,
                underlying: error)
        }
    }
}
