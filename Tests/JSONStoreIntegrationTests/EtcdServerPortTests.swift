import Foundation
import Glibc
import TestSupport
import Testing

extension EtcdTests {
    /// The tests' etcd counts as started when it holds its port, not when the port answers:
    /// a port found free may be taken by another test's listener before etcd binds it, and
    /// a proxy there to that test's etcd answers every health check.
    @Suite("A test's etcd is the one holding its port")
    struct ServerPort {
        @Test("a proxy's port answers for etcd, but etcd does not hold it; its own it does")
        func proxyIsNotTheServer() async throws {
            let server = try await blocking { try EtcdServer() }
            let pid = try #require(server.processIdentifier)
            let proxy = try CuttingProxy(to: server.clientPort)
            defer { proxy.stop() }
            let health = try await EtcdServer.etcdctl(
                ["endpoint", "health"], endpoints: [proxy.endpoint])
            #expect(health.status == 0, "\(health.output)")
            #expect(Loopback.listens(pid, on: server.clientPort))
            #expect(!Loopback.listens(pid, on: proxy.port))
            #expect(Loopback.listens(getpid(), on: proxy.port))
            await server.stop()
            #expect(!Loopback.listens(pid, on: server.clientPort))
        }
    }
}
