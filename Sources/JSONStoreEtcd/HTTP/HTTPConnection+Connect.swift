extension HTTPConnection {
    /// Connects to `host:port`, over TLS with `tls`, by `deadline`.
    convenience init(host: String, port: UInt16, tls: TLSContext? = nil, until deadline: Deadline)
        throws(EtcdError)
    {
        let socket: any ByteStream
        if let tls {
            socket = try TLSSocket(host: host, port: port, context: tls, until: deadline)
        } else {
            socket = try TCPSocket(host: host, port: port, until: deadline)
        }
        self.init(socket: socket, host: host)
    }
}
