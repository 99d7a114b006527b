import Foundation
import Glibc

/// A real three-member etcd cluster on free loopback ports, each member with a temporary
/// data directory; every member is stopped (and its directory removed) when the value goes
/// away. Members can be killed and started again, to test failover.
public final class EtcdCluster: @unchecked Sendable {
    /// One member: its ports, its data, its process while it runs.
    public final class Member: @unchecked Sendable {
        public let name: String
        public let clientPort: UInt16
        public let peerPort: UInt16
        let dataDirectory: String
        var process: Process?

        init(name: String, clientPort: UInt16, peerPort: UInt16, dataDirectory: String) {
            self.name = name
            self.clientPort = clientPort
            self.peerPort = peerPort
            self.dataDirectory = dataDirectory
        }

        /// `127.0.0.1:PORT`.
        public var endpoint: String { "127.0.0.1:\(clientPort)" }
        var peerURL: String { "http://127.0.0.1:\(peerPort)" }
    }

    public let members: [Member]

    /// Every member's client endpoint, in order.
    public var endpoints: [String] { members.map(\.endpoint) }

    /// Starts three members and waits until the cluster answers (60 s at most).
    public init() throws {
        PoolGuard.check("starting an etcd cluster")
        var ports: Set<UInt16> = []
        func fresh() throws -> UInt16 {
            var port = try EtcdServer.freePort()
            while ports.contains(port) { port = try EtcdServer.freePort() }
            ports.insert(port)
            return port
        }
        let base =
            NSTemporaryDirectory()
            + "/jsonstore-etcd-cluster-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        members = try (1...3).map { n in
            Member(
                name: "m\(n)", clientPort: try fresh(), peerPort: try fresh(),
                dataDirectory: base + "-m\(n)")
        }
        for member in members { try launch(member) }
        try waitUntilHealthy(members)
    }

    deinit {
        // On a thread of its own, as `EtcdServer`'s.
        let members = members.map { ($0.process, $0.dataDirectory) }
        Thread.detachNewThread {
            for (process, directory) in members {
                if let process { EtcdServer.stop(process, signal: SIGTERM) }
                ServerReaper.remove(directory)
            }
        }
    }

    private func launch(_ member: Member) throws {
        let cluster = members.map { "\($0.name)=\($0.peerURL)" }.joined(separator: ",")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/etcd")
        let client = "http://\(member.endpoint)"
        process.arguments =
            [
                "--name", member.name, "--data-dir", member.dataDirectory,
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", member.peerURL, "--initial-advertise-peer-urls",
                member.peerURL,
                "--initial-cluster", cluster, "--initial-cluster-state", "new",
                "--initial-cluster-token", "jsonstore-test", "--log-level", "error",
            ] + EtcdServer.environmentArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        ServerReaper.started(process, directory: member.dataDirectory)
        member.process = process
    }

    private func waitUntilHealthy(_ members: [Member]) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            // Healthy when the member itself holds its port: another test's listener may
            // have taken it first, and answer in its stead.
            let healthy = try members.allSatisfy { member in
                guard let process = member.process,
                    try etcdctl(["endpoint", "health"], endpoints: [member.endpoint]).status == 0
                else { return false }
                return Loopback.listens(process.processIdentifier, on: member.clientPort)
            }
            if healthy { return }
            usleep(100_000)
        }
        throw EtcdServerError(message: "the etcd cluster did not become healthy")
    }

    /// Stops `member` with `signal` and waits for it.
    public func stop(_ member: Member, signal: Int32 = SIGTERM) {
        PoolGuard.check("stopping an etcd member")
        guard let process = member.process else { return }
        EtcdServer.stop(process, signal: signal)
        member.process = nil
    }

    /// Starts `member` again on its data, and waits until it answers.
    public func start(_ member: Member) throws {
        PoolGuard.check("starting an etcd member")
        try launch(member)
        try waitUntilHealthy([member])
    }

    /// Runs `etcdctl` against `endpoints` (by default every member).
    @discardableResult
    public func etcdctl(_ arguments: [String], endpoints: [String]? = nil) throws -> (
        status: Int32, output: String
    ) {
        try EtcdServer.etcdctl(arguments, endpoints: endpoints ?? self.endpoints)
    }
}
