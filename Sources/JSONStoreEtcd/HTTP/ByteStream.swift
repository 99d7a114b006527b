/// A connection HTTP runs over: a plain TCP socket, or a TLS session on one.
protocol ByteStream: AnyObject {
    /// `host:port`, for messages.
    var endpoint: String { get }
    /// Sends all of `bytes` by `deadline`.
    func send(_ bytes: [UInt8], until deadline: Deadline) throws(EtcdError)
    /// Appends what arrives to `buffer`, waiting until `deadline` at most for something,
    /// or until `wake` is signalled (then `nil`, the signal taken); returns how many bytes
    /// arrived, 0 when the peer closed the connection.
    func receive(into buffer: inout [UInt8], until deadline: Deadline, wake: WakeSignal?)
        throws(EtcdError) -> Int?
    /// Whether the peer has closed the connection (or sent what an idle connection never
    /// gets), without waiting: a kept-alive connection to replace before a request.
    var isClosedByPeer: Bool { get }
    /// Ends the connection both ways so a thread waiting on it wakes up; safe from another
    /// thread.
    func shutdown()
    /// Closes the connection; later calls fail.
    func close()
}

extension ByteStream {
    /// Appends what arrives to `buffer`, waiting until `deadline` at most for something;
    /// returns how many bytes arrived, 0 when the peer closed the connection.
    func receive(into buffer: inout [UInt8], until deadline: Deadline) throws(EtcdError) -> Int {
        // With no signal to wake it, only bytes, the end or the deadline end the wait.
        try receive(into: &buffer, until: deadline, wake: nil) ?? 0
    }
}
