import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStoreEtcd

extension EtcdTests {
    /// etcd's own gRPC API over HTTP/2 against a real etcd, checked against what `etcdctl`
    /// (a client nobody here wrote) reads and writes.
    @Suite("gRPC calls to a real etcd")
    struct GRPC {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

        /// A connection of its own to `server`, in the clear, with `window` bytes of room.
        static func connect(_ server: EtcdServer, window: Int = 1 << 24) throws -> GRPCConnection {
            let deadline = Deadline(seconds: 10)
            let socket = try TCPSocket(host: "127.0.0.1", port: server.clientPort, until: deadline)
            return try GRPCConnection(
                socket: socket, tls: false, streamWindow: window, connectionWindow: window,
                until: deadline)
        }

        func range(_ connection: GRPCConnection, _ request: EtcdRPC.RangeRequest) throws
            -> EtcdRPC.RangeResponse
        {
            let answer = try connection.call(
                "/etcdserverpb.KV/Range", request.encoded, until: Deadline(seconds: 10))
            return try EtcdRPC.RangeResponse(decoding: answer)
        }

        @Test("put, range and a compare-and-swap, as etcdctl sees them")
        func unary() async throws {
            let server = try await blocking { try EtcdServer() }
            let connection = try Self.connect(server)
            defer { connection.close() }
            let put = try EtcdRPC.PutResponse(
                decoding: connection.call(
                    "/etcdserverpb.KV/Put",
                    EtcdRPC.PutRequest(key: bytes("tasks/tea"), value: bytes("{\"v\":1}")).encoded,
                    until: Deadline(seconds: 10)))
            #expect(put.header.revision > 1)
            #expect(
                try await server.etcdctl(["get", "tasks/tea", "--print-value-only"]).output
                    == "{\"v\":1}\n")
            _ = try await server.etcdctl(["put", "tasks/coffee", "{\"v\":2}"])
            let listed = try range(
                connection, .init(key: bytes("tasks/"), rangeEnd: bytes("tasks0")))
            #expect(listed.keyValues.map(\.key) == [bytes("tasks/coffee"), bytes("tasks/tea")])
            #expect(listed.keyValues.last?.value == bytes("{\"v\":1}"))
            #expect(listed.count == 2 && listed.header.revision == put.header.revision + 1)
            // Create-only: refused now that the key is there; its branch's range answers.
            let txn = EtcdRPC.TxnRequest(
                compare: [.init(key: bytes("tasks/tea"), result: .equal, target: .modRevision(0))],
                success: [.put(.init(key: bytes("tasks/tea"), value: bytes("{\"v\":9}")))],
                failure: [.range(.init(key: bytes("tasks/tea")))])
            let refused = try EtcdRPC.TxnResponse(
                decoding: connection.call(
                    "/etcdserverpb.KV/Txn", txn.encoded, until: Deadline(seconds: 10)))
            #expect(!refused.succeeded)
            guard case .range(let current)? = refused.responses.first else {
                Issue.record("no range in the failure branch: \(refused.responses)")
                return
            }
            #expect(current.keyValues.first?.value == bytes("{\"v\":1}"))
        }

        @Test("a range of 4 MB: the windows granted back as it comes, one message")
        func large() async throws {
            let server = try await blocking { try EtcdServer() }
            let value = String(repeating: "x", count: 1_000)
            let port = server.clientPort
            try await blocking {
                let writer = EtcdClient(endpoints: [.init(host: "127.0.0.1", port: port)])
                for i in 0..<4_000 {
                    try writer.put(Array(String(format: "big/%05d", i).utf8), Array(value.utf8))
                }
            }
            // Windows of 64 KiB: the server waits for room every 32 KiB or so, on the
            // stream and on the connection, three ranges on one connection.
            let connection = try Self.connect(server, window: 65_535)
            defer { connection.close() }
            for _ in 0..<3 {
                let all = try range(connection, .init(key: bytes("big/"), rangeEnd: bytes("big0")))
                #expect(all.keyValues.count == 4_000)
                #expect(all.keyValues.allSatisfy { $0.value.count == 1_000 })
            }
        }

        @Test("a prefix read in pages at one revision: later writes not in it")
        func pages() async throws {
            let server = try await blocking { try EtcdServer() }
            let port = server.clientPort
            try await blocking {
                let writer = EtcdClient(endpoints: [.init(host: "127.0.0.1", port: port)])
                for i in 0..<1_200 {
                    try writer.put(Array(String(format: "p/%05d", i).utf8), Array("\(i)".utf8))
                }
                try writer.put(Array("pX".utf8), Array("not under the prefix".utf8))
            }
            let connection = try GRPCConnection.connect(host: "127.0.0.1", port: port)
            defer { connection.close() }
            let (revision, all) = try connection.range(prefix: bytes("p/"), pageSize: 500)
            #expect(all.map(\.key) == (0..<1_200).map { bytes(String(format: "p/%05d", $0)) })
            _ = try await server.etcdctl(["put", "p/late", "{}"])
            let (same, again) = try connection.range(
                prefix: bytes("p/"), revision: revision, pageSize: 300)
            #expect(same == revision && again == all)
            #expect(try connection.range(prefix: bytes("p/")).keyValues.count == 1_201)
        }

        @Test("over TLS: h2 chosen by ALPN, the certificate checked; in the clear to TLS fails")
        func tls() async throws {
            let certificates = try TestCertificates()
            let server = try await blocking { try EtcdServer(certificates: certificates) }
            try await server.etcdctl(["put", "tls/tea", "{}"])
            let context = try TLSContext(
                EtcdTLS(
                    caCertificate: certificates.ca, certificate: certificates.clientCertificate,
                    key: certificates.clientKey))
            let connection = try GRPCConnection.connect(
                host: "127.0.0.1", port: server.clientPort, tls: context)
            defer { connection.close() }
            #expect(
                try connection.range(prefix: bytes("tls/")).keyValues.map(\.key) == [
                    bytes("tls/tea")
                ])
            // A CA that did not sign the server's certificate: refused in the handshake.
            let other = try TLSContext(
                EtcdTLS(
                    caCertificate: certificates.otherCA,
                    certificate: certificates.clientCertificate,
                    key: certificates.clientKey))
            #expect(throws: EtcdError.self) {
                try GRPCConnection.connect(host: "127.0.0.1", port: server.clientPort, tls: other)
            }
            // HTTP/2 in the clear to a TLS port: an error within the deadline, not a hang.
            #expect(throws: EtcdError.self) {
                let plain = try GRPCConnection.connect(
                    host: "127.0.0.1", port: server.clientPort, timeout: 3)
                defer { plain.close() }
                _ = try plain.range(prefix: bytes("tls/"), timeout: 3)
            }
        }

        @Test("etcd's refusals come back as its gRPC status, and the connection goes on")
        func status() async throws {
            let server = try await blocking { try EtcdServer() }
            let connection = try Self.connect(server)
            defer { connection.close() }
            // A revision not reached yet.
            #expect {
                _ = try range(connection, .init(key: bytes("a"), revision: 1_000_000))
            } throws: { error in
                "\(error)".contains("OUT_OF_RANGE") && "\(error)".contains("future revision")
            }
            // An unknown method.
            #expect {
                _ = try connection.call(
                    "/etcdserverpb.KV/Nothing", [], until: Deadline(seconds: 10))
            } throws: { error in
                "\(error)".contains("UNIMPLEMENTED")
            }
            #expect(try range(connection, .init(key: bytes("a"))).keyValues.isEmpty)
        }
    }
}
