import JSONStore

extension EtcdClient {
    /// The connection requests go to now: the one there is while it is usable, else one
    /// made to the current endpoint in the transport asked for.
    func connected(until deadline: Deadline) throws(EtcdError) -> Connection {
        switch connection {
        case .grpc(let made)? where made.connection.isUsable:
            return .grpc(made)
        case .gateway(let made)? where made.responses == 0 || !made.socket.isClosedByPeer:
            // A kept-alive connection the server has closed meanwhile is replaced before
            // anything goes out on it.
            return .gateway(made)
        default:
            drop()
        }
        let made = try connect(to: endpoints[currentIndex], until: deadline)
        connection = made
        return made
    }

    /// A connection to `endpoint`: gRPC (HTTP/2 with prior knowledge, or `h2` chosen by
    /// ALPN over TLS), or the gateway when asked, or when `automatic` finds the server
    /// does not speak HTTP/2 (then every later connection of the client goes to the
    /// gateway at once).
    private func connect(to endpoint: Endpoint, until deadline: Deadline) throws(EtcdError)
        -> Connection
    {
        let wanted = transport == .automatic && spoken == .gateway ? .gateway : transport
        if wanted == .gateway {
            spoken = .gateway
            return .gateway(
                try HTTPConnection(
                    host: endpoint.host, port: endpoint.port, tls: tls, until: deadline))
        }
        if let tls {
            let session = try TLSSocket(
                host: endpoint.host, port: endpoint.port, context: tls,
                protocols: wanted == .grpc ? ["h2"] : ["h2", "http/1.1"], until: deadline)
            if session.negotiatedProtocol == "h2" {
                spoken = .grpc
                return .grpc(
                    GRPCHold(try GRPCConnection(socket: session, tls: true, until: deadline)))
            }
            guard wanted == .automatic else {
                session.close()
                throw GRPCConnection.notHTTP2(session)
            }
            spoken = .gateway
            return .gateway(HTTPConnection(socket: session, host: endpoint.host))
        }
        do {
            let made = try GRPCConnection.connect(
                host: endpoint.host, port: endpoint.port, timeout: deadline.remaining)
            spoken = .grpc
            return .grpc(GRPCHold(made))
        } catch  where error.kind == .notHTTP2 && wanted == .automatic {
            spoken = .gateway
            return .gateway(
                try HTTPConnection(host: endpoint.host, port: endpoint.port, until: deadline))
        }
    }
}

extension EtcdClient {
    /// Where a watch goes (`EtcdWatch`): on gRPC, the connection the client's calls take
    /// (made now if need be; the watch one more stream on it); on the gateway, the
    /// endpoint. With `endpoint`, the client moves to that one of its endpoints first. The
    /// token is made now: a watch about to start cannot refresh one that expires later.
    package func watchTarget(endpoint index: Int? = nil) throws(EtcdError) -> EtcdWatch.Target {
        if let index, index % endpoints.count != currentIndex {
            drop()
            move(to: index % endpoints.count)
        }
        let token = try freshAuthToken()
        switch try connected(until: Deadline(seconds: timeout)) {
        case .grpc(let hold): return .grpc(hold, token: token)
        case .gateway: return .gateway(endpoints[currentIndex], token: token, tls: tls)
        }
    }
}

extension EtcdClient.Transport {
    /// `gRPC`, `the JSON gateway`: as messages say it.
    package var name: String {
        switch self {
        case .automatic: "gRPC, or the JSON gateway where HTTP/2 is not spoken"
        case .grpc: "gRPC"
        case .gateway: "the JSON gateway"
        }
    }
}
