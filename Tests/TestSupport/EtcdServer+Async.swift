import Glibc

// What a test's task calls: the same as the synchronous calls, run on a thread of their
// own (`blocking { }`), so that no thread of the cooperative pool waits on etcd or etcdctl.
// In an async context Swift picks these; inside `blocking { }` the synchronous ones.

extension EtcdServer {
    /// Starts (or starts again, on the same data) the server, waiting until it answers.
    public func start() async throws {
        try await blocking { try self.start() }
    }

    /// Stops the server with `signal` and waits for it.
    public func stop(signal: Int32 = SIGTERM) async {
        _ = try? await blocking { self.stop(signal: signal) }
    }

    /// Runs `etcdctl` against this server.
    @discardableResult
    public func etcdctl(_ arguments: [String], stdin: String = "") async throws -> (
        status: Int32, output: String
    ) {
        try await blocking { try self.etcdctl(arguments, stdin: stdin) }
    }

    /// Runs `etcdctl` against `endpoints`.
    public static func etcdctl(_ arguments: [String], endpoints: [String], stdin: String = "")
        async throws -> (status: Int32, output: String)
    {
        try await blocking { try etcdctl(arguments, endpoints: endpoints, stdin: stdin) }
    }
}

extension EtcdCluster {
    /// Starts `member` again on its data, and waits until it answers.
    public func start(_ member: Member) async throws {
        try await blocking { try self.start(member) }
    }

    /// Stops `member` with `signal` and waits for it.
    public func stop(_ member: Member, signal: Int32 = SIGTERM) async {
        _ = try? await blocking { self.stop(member, signal: signal) }
    }

    /// Runs `etcdctl` against `endpoints` (by default every member).
    @discardableResult
    public func etcdctl(_ arguments: [String], endpoints: [String]? = nil) async throws -> (
        status: Int32, output: String
    ) {
        try await blocking { try self.etcdctl(arguments, endpoints: endpoints) }
    }
}
