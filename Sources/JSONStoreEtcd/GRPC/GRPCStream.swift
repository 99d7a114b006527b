import JSONStore

/// One gRPC call on a `GRPCConnection`: its messages sent and taken by its owner, from
/// one thread or several in turn, while other calls go on beside it. A watch is one that
/// lives as long as its owner wants (`send` a request, `receive` answers); `cancel` ends
/// it, and `interrupt` wakes a thread waiting in `receive` from another.
struct GRPCStream: Sendable {
    let connection: GRPCConnection
    /// The stream's id on the connection.
    let id: UInt32

    /// Sends `message`, within the room the server leaves, and with `endStream` says it
    /// is the last; returns early, the rest unsent, if the server ends the call first.
    func send(_ message: [UInt8], endStream: Bool = false, until deadline: Deadline)
        throws(EtcdError)
    {
        try connection.sendData(
            GRPCMessages.frame(message), endStream: endStream, on: id, until: deadline)
    }

    /// The next message of the answer, waiting until `deadline` for it; `nil` once the
    /// server ended the call with OK. Throws its other status, a reset, the connection's
    /// failure, or a timeout (`.timedOut`: the stream goes on, and may be waited on again).
    func receive(until deadline: Deadline) throws(EtcdError) -> [UInt8]? {
        try connection.receive(on: id, until: deadline)
    }

    /// Ends the call, if the server has not: the server told to stop (RST_STREAM
    /// `CANCEL`), and what it still sends ignored.
    func cancel() { connection.cancel(id) }

    /// Wakes a thread waiting in `receive` on the stream (which then throws); safe from
    /// any thread. The stream ends.
    func interrupt() {
        connection.end(id, EtcdError(endpoint: connection.authority, reason: "interrupted"))
    }
}
