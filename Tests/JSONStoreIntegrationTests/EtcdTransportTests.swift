import Dispatch
import Foundation
import JSONStore
import TestSupport
import Testing

@testable import JSONStoreEtcd

/// Which of etcd's APIs a client speaks: gRPC where the server speaks HTTP/2, the JSON
/// gateway where it does not (a scripted HTTP/1.1-only server here), either when forced.
@Suite("The transport a client speaks: gRPC, or the gateway as the fallback")
struct EtcdTransportTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// The gateway's answer to a range: `p/items/a` is `{}`, at revision 7.
    static let answer: [UInt8] = {
        let body =
            #"{"header":{"cluster_id":"12","revision":"7"},"kvs":[{"key":"\#(Base64.encode(Array("p/items/a".utf8)))","#
            + #""create_revision":"5","mod_revision":"5","version":"1","value":"e30="}],"count":"1"}"#
        return Array(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                .utf8)
    }()

    @Test("a server that speaks HTTP/1.1 only: automatic falls back to the gateway")
    func fallback() throws {
        let server = try HostileServer([.send(Self.answer)])
        defer { server.stop() }
        let client = EtcdClient(endpoints: [.init(host: "127.0.0.1", port: server.port)])
        let read = try client.get(bytes("p/items/a"))
        #expect(read.revision == 7 && read.keyValue?.value == bytes("{}"))
        #expect(client.spoken == .gateway)
        // Every later connection of the client goes to the gateway at once.
        _ = try client.get(bytes("p/items/a"))
        #expect(client.spoken == .gateway)
    }

    @Test("gRPC forced on a server that speaks HTTP/1.1 only: refused, and says why")
    func forced() throws {
        let server = try HostileServer([.send(Self.answer)])
        defer { server.stop() }
        let client = EtcdClient(
            endpoints: [.init(host: "127.0.0.1", port: server.port)], transport: .grpc)
        #expect {
            _ = try client.get(bytes("p/items/a"))
        } throws: { error in
            (error as? EtcdError)?.kind == .notHTTP2
                && "\(error)".contains("does not speak HTTP/2")
        }
    }
}

extension EtcdTests {
    /// A real etcd with its JSON gateway on and off.
    @Suite("etcd's gateway on and off")
    struct Transports {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

        @Test("the gateway off: gRPC speaks to it; the gateway forced is refused")
        func gatewayOff() async throws {
            let server = try await blocking {
                try EtcdServer(arguments: ["--enable-grpc-gateway=false"])
            }
            let endpoint = EtcdClient.Endpoint(host: "127.0.0.1", port: server.clientPort)
            try await blocking {
                let client = EtcdClient(endpoints: [endpoint])
                let written = try client.put(bytes("k"), bytes("v"))
                #expect(try client.get(bytes("k")).keyValue?.modRevision == written)
                #expect(client.spoken == .grpc)
                let gateway = EtcdClient(endpoints: [endpoint], transport: .gateway)
                #expect(throws: EtcdError.self) { try gateway.get(self.bytes("k")) }
            }
            #expect(try await server.etcdctl(["get", "k", "--print-value-only"]).output == "v\n")
        }

        @Test("the gateway off: observers get each transaction from a watch over gRPC")
        func liveGatewayOff() async throws {
            let server = try await blocking {
                try EtcdServer(arguments: ["--enable-grpc-gateway=false"])
            }
            let endpoint = server.endpoint
            let store = try await blocking {
                try JSONStore(etcd: [endpoint], prefix: "tasks", timeout: 2)
            }
            let recorder = ChangeRecorder()
            let token = store.observe(on: DispatchQueue(label: "observer"), recorder.callback)
            defer { token.invalidate() }
            try await server.etcdctl(["put", "tasks/a", #"{"n":1}"#])
            #expect(await recorder.wait { $0.initialCount == 1 && $0.ids == ["a"] })
            let updates = recorder.current.updates.count
            let txn = try await server.etcdctl(
                ["txn"], stdin: "\nput tasks/b {}\ndel tasks/a\n\n\n")
            #expect(txn.status == 0, "\(txn.output)")
            #expect(await recorder.wait { $0.ids == ["b"] })
            #expect(recorder.current.updates.count == updates + 1)
        }

        @Test("the gateway forced on an etcd that serves both: the same answers")
        func gatewayForced() async throws {
            let server = try await blocking { try EtcdServer(arguments: []) }
            let endpoint = EtcdClient.Endpoint(host: "127.0.0.1", port: server.clientPort)
            try await blocking {
                let gateway = EtcdClient(endpoints: [endpoint], transport: .gateway)
                let grpc = EtcdClient(endpoints: [endpoint], transport: .grpc)
                let written = try gateway.put(bytes("k"), bytes("v"))
                let swapped = try grpc.write(bytes("k"), bytes("w"), if: .modRevision(written))
                #expect(swapped.succeeded)
                let stale = try gateway.write(bytes("k"), bytes("x"), if: .modRevision(written))
                #expect(!stale.succeeded && stale.revision == swapped.revision)
                #expect(try gateway.get(bytes("k")).keyValue?.value == bytes("w"))
                #expect(gateway.spoken == .gateway && grpc.spoken == .grpc)
            }
        }
    }
}
