/// A hold on a `GRPCConnection` that several share: the client that made it, and each watch
/// opened on it. The connection is closed when the last hold goes, so a client that moves
/// on, or is dropped after an error etcd answered, never cuts a watch still reading.
package final class GRPCHold: Sendable {
    let connection: GRPCConnection

    init(_ connection: GRPCConnection) { self.connection = connection }

    deinit { connection.close() }
}
