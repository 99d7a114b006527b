extension GRPCConnection {
    /// Every key that starts with `prefix`, at one revision, read in pages (`RangePages`)
    /// by `KV.Range`.
    ///
    /// - Parameter timeout: the seconds each page may take.
    /// - Returns: the revision read at, and the keys in key order.
    package func range(
        prefix: [UInt8], revision: Int64? = nil, pageSize: Int = 1_000,
        pageBytes: Int = 4 << 20, timeout: Double = 30
    ) throws(EtcdError) -> (revision: Int64, keyValues: [EtcdClient.KeyValue]) {
        var pages = RangePages(
            prefix: prefix, revision: revision, pageSize: pageSize, pageBytes: pageBytes)
        while true {
            let request = EtcdRPC.RangeRequest(
                key: pages.start, rangeEnd: pages.end, limit: Int64(pages.limit),
                revision: pages.revision ?? 0)
            let answer = try call(
                "/etcdserverpb.KV/Range", request.encoded, until: Deadline(seconds: timeout))
            let page: EtcdRPC.RangeResponse
            do {
                page = try EtcdRPC.RangeResponse(decoding: answer)
            } catch {
                throw bad("a range's answer: \(error)")
            }
            switch pages.take(
                page.keyValues, at: pages.revision ?? page.header.revision, more: page.more)
            {
            case .success(true): continue
            case .success(false): return (pages.revision ?? 0, pages.found)
            case .failure(let refusal): throw bad(refusal.reason)
            }
        }
    }

    /// A connection to etcd at `host`, `port`, made within `timeout` seconds: in the clear
    /// (HTTP/2 with prior knowledge), or over TLS with `tls`, where the server must choose
    /// `h2` among the protocols offered (ALPN).
    package static func connect(
        host: String, port: UInt16, tls: TLSContext? = nil, timeout: Double = 5
    ) throws(EtcdError) -> GRPCConnection {
        let deadline = Deadline(seconds: timeout)
        let socket: ByteStream
        if let tls {
            let session = try TLSSocket(
                host: host, port: port, context: tls, protocols: ["h2"], until: deadline)
            guard session.negotiatedProtocol == "h2" else {
                session.close()
                throw EtcdError(
                    endpoint: session.endpoint,
                    reason: "the server does not speak HTTP/2 over TLS (ALPN chose "
                        + "\(session.negotiatedProtocol.map { "\"\($0)\"" } ?? "nothing"))")
            }
            socket = session
        } else {
            socket = try TCPSocket(host: host, port: port, until: deadline)
        }
        do {
            return try GRPCConnection(socket: socket, tls: tls != nil, until: deadline)
        } catch {
            socket.close()
            throw error
        }
    }
}
