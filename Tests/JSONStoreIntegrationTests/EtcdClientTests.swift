import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStoreEtcd

extension EtcdTests {
    /// The etcd client against a real etcd started for each test (`EtcdServer`), driven also
    /// by `etcdctl`, a client nobody here wrote.
    @Suite("The etcd client against a real etcd")
    struct Client {
        func client(_ server: EtcdServer) -> EtcdClient {
            EtcdClient(endpoints: [.init(host: "127.0.0.1", port: server.clientPort)])
        }

        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

        @Test("a prefix of 2,500 keys read in pages at one revision; later writes not in it")
        func pagedRange() async throws {
            let server = try await blocking { try EtcdServer() }
            // 2,500 round trips: on a thread of their own, not one the tests share.
            let port = server.clientPort
            try await blocking {
                let writer = EtcdClient(endpoints: [.init(host: "127.0.0.1", port: port)])
                for i in 0..<2_500 {
                    try writer.put(
                        Array(String(format: "tasks/%05d", i).utf8), Array("{\"n\":\(i)}".utf8))
                }
                try writer.put(Array("tasksX".utf8), Array("not under the prefix".utf8))
            }
            let etcd = client(server)
            let (revision, all) = try etcd.range(prefix: bytes("tasks/"), pageSize: 1_000)
            #expect(all.count == 2_500)
            #expect(all.map(\.key) == (0..<2_500).map { bytes(String(format: "tasks/%05d", $0)) })
            #expect(all.last?.value == bytes("{\"n\":2499}"))
            try etcd.put(bytes("tasks/late"), bytes("{}"))
            let (same, again) = try etcd.range(
                prefix: bytes("tasks/"), revision: revision, pageSize: 700)
            #expect(same == revision)
            #expect(again == all)
            let listed = try await server.etcdctl(["get", "--prefix", "tasks/", "--keys-only"])
            #expect(listed.output.split(separator: "\n").count == 2_501)
        }

        @Test("compare-and-swap on mod_revision: stale is refused, absent means 0")
        func compareAndSwap() async throws {
            let server = try await blocking { try EtcdServer() }
            let etcd = client(server)
            let key = bytes("tasks/tea")
            var result = try etcd.write(key, bytes("{\"v\":1}"), if: .modRevision(0))
            #expect(result.succeeded)
            let created = try etcd.range(prefix: key).keyValues.first!.modRevision
            result = try etcd.write(key, bytes("{\"v\":2}"), if: .modRevision(0))
            #expect(!result.succeeded)  // exists already
            result = try etcd.write(key, bytes("{\"v\":2}"), if: .modRevision(created))
            #expect(result.succeeded)
            result = try etcd.write(key, bytes("{\"v\":3}"), if: .modRevision(created))
            #expect(!result.succeeded)  // stale
            #expect(try etcd.range(prefix: key).keyValues.first?.value == bytes("{\"v\":2}"))
            let current = try etcd.range(prefix: key).keyValues.first!.modRevision
            result = try etcd.write(key, nil, if: .modRevision(current))
            #expect(result.succeeded)
            #expect(try etcd.range(prefix: key).keyValues.isEmpty)
            #expect(try etcd.delete(key).existed == false)
        }

        @Test("the writer's replace: over what the key holds, declined when not accepted")
        func replace() async throws {
            let server = try await blocking { try EtcdServer() }
            let writer = EtcdWriter(
                clients: EtcdClients(
                    endpoints: [.init(host: "127.0.0.1", port: server.clientPort)], timeout: 5))
            let key = bytes("tasks/.jsonstore/schema.json")
            #expect(try writer.replace(key, with: bytes("{}")) == .replaced(previous: nil))
            let second = try writer.replace(key, with: bytes("{\"type\":\"object\"}")) {
                $0 == bytes("{}")
            }
            #expect(second == .replaced(previous: bytes("{}")))
            // Another writer's value since: not what the caller decided on, so not written.
            try await server.etcdctl(["put", "tasks/.jsonstore/schema.json", "{\"other\":1}"])
            let third = try writer.replace(key, with: nil) { $0 == bytes("{}") }
            #expect(third == .declined(current: bytes("{\"other\":1}")))
            #expect(try client(server).get(key).keyValue?.value == bytes("{\"other\":1}"))
            #expect(
                try writer.replace(key, with: nil) == .replaced(previous: bytes("{\"other\":1}")))
            #expect(try client(server).get(key).keyValue == nil)
        }

        /// A watch on `server` as a client of `transport` opens it; `nil` for the gateway
        /// when the server has it off (the suite run by `.ci/run` with it off).
        func watch(
            _ server: EtcdServer, _ transport: EtcdClient.Transport, from revision: Int64
        ) throws -> EtcdWatch? {
            guard transport != .gateway || server.servesGateway else { return nil }
            let client = EtcdClient(
                endpoints: [.init(host: "127.0.0.1", port: server.clientPort)],
                transport: transport)
            return try EtcdWatch(client.watchTarget(), prefix: bytes("tasks/"), from: revision)
        }

        @Test(
            "a watch from a revision: puts, deletes with previous values, a txn in one answer",
            arguments: [EtcdClient.Transport.grpc, .gateway])
        func watch(_ transport: EtcdClient.Transport) async throws {
            let server = try await blocking { try EtcdServer() }
            let etcd = client(server)
            let start = try etcd.put(bytes("tasks/a"), bytes("1"))
            guard let watch = try watch(server, transport, from: start + 1) else { return }
            defer { watch.close() }
            try await server.etcdctl(["put", "tasks/a", "2"])
            try await server.etcdctl(["del", "tasks/a"])
            let txn = try await server.etcdctl(
                ["txn"], stdin: "\nput tasks/b x\nput tasks/c y\n\n\n")
            #expect(txn.status == 0, "\(txn.output)")
            try await server.etcdctl(["put", "other/z", "not watched"])
            // Read on a thread of its own, not the cooperative pool's.
            let responses = try await blocking {
                var responses: [EtcdWatch.Response] = []
                while responses.flatMap(\.events).count < 4 {
                    let response = try watch.next(timeout: 10)
                    if !response.isProgress { responses.append(response) }
                }
                return responses
            }
            let events = responses.flatMap(\.events)
            #expect(events.map(\.kind) == [.put, .delete, .put, .put])
            #expect(
                events[0].keyValue.value == bytes("2") && events[0].previous?.value == bytes("1"))
            #expect(events[1].previous?.value == bytes("2"))
            #expect(
                events.map { String(decoding: $0.keyValue.key, as: UTF8.self) } == [
                    "tasks/a", "tasks/a", "tasks/b", "tasks/c",
                ])
            // The transaction's two puts share a revision and arrive in one answer.
            #expect(responses.contains { $0.events.count == 2 })
            #expect(events[2].keyValue.modRevision == events[3].keyValue.modRevision)
        }

        @Test(
            "a compacted revision ends the watch with the compact revision",
            arguments: [EtcdClient.Transport.grpc, .gateway])
        func compacted(_ transport: EtcdClient.Transport) async throws {
            let server = try await blocking { try EtcdServer() }
            let etcd = client(server)
            for i in 0..<5 { try etcd.put(bytes("tasks/k"), bytes("\(i)")) }
            let latest = try etcd.put(bytes("tasks/k"), bytes("last"))
            await #expect(try server.etcdctl(["compact", String(latest)]).status == 0)
            var ended: EtcdWatch.Response?
            do {
                guard let watch = try watch(server, transport, from: 2) else { return }
                defer { watch.close() }
                ended = try await blocking { try watch.next(timeout: 10) }
            } catch {
                // etcd may refuse it at creation: then the error says compacted.
                #expect("\(error)".contains("compact"), "\(error)")
                return
            }
            #expect(ended?.compactRevision == latest)
        }

        @Test("a dead endpoint first: the request goes to the next; none answering names one")
        func failover() async throws {
            let server = try await blocking { try EtcdServer() }
            let dead = try EtcdServer.freePort()
            let etcd = EtcdClient(
                endpoints: [
                    .init(host: "127.0.0.1", port: dead),
                    .init(host: "127.0.0.1", port: server.clientPort),
                ], timeout: 2)
            try etcd.put(bytes("tasks/x"), bytes("1"))
            #expect(try etcd.range(prefix: bytes("tasks/")).keyValues.count == 1)
            let nobody = EtcdClient(endpoints: [.init(host: "127.0.0.1", port: dead)], timeout: 2)
            let error = #expect(throws: EtcdError.self) { try nobody.put(bytes("k"), bytes("v")) }
            #expect(error?.endpoint == "127.0.0.1:\(dead)")
            #expect(error?.kind == .connectionRefused)
            #expect(
                error?.description.contains(
                    "connection refused: is etcd running at 127.0.0.1:\(dead)?") == true,
                "\(error?.description ?? "")")
        }

        @Test("etcd killed and started again: the client reconnects on the next request")
        func restart() async throws {
            let server = try await blocking { try EtcdServer() }
            let etcd = client(server)
            try etcd.put(bytes("tasks/a"), bytes("1"))
            await server.stop(signal: SIGKILL)
            #expect(throws: EtcdError.self) { try etcd.put(bytes("tasks/b"), bytes("2")) }
            try await blocking { try server.start() }
            try etcd.put(bytes("tasks/b"), bytes("2"))
            #expect(try etcd.range(prefix: bytes("tasks/")).keyValues.count == 2)
        }
    }
}
