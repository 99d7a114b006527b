import JSONStore
import Testing

@testable import JSONStoreEtcd

/// The typed requests as the JSON gateway takes them, its answers read into the same
/// types, and etcd's errors named by their code: what the client does when it falls back,
/// without an etcd.
@Suite("The gateway's JSON for the typed calls, and etcd's error codes")
struct GatewayCodecTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    func json(_ text: String) throws -> JSONValue {
        try JSONReader(maxDepth: 64, maxSize: .max).read(bytes(text))
    }

    @Test("a range: bytes in base64, integers as strings, defaults left out, enums by name")
    func range() throws {
        var request = EtcdRPC.RangeRequest(key: bytes("a"), rangeEnd: bytes("b"), limit: 1)
        request.keysOnly = true
        request.sortByNewestModification = true
        #expect(
            request.json
                == [
                    "key": "YQ==", "range_end": "Yg==", "limit": "1", "sort_order": "DESCEND",
                    "sort_target": "MOD", "keys_only": true,
                ])
        #expect(EtcdRPC.RangeRequest(key: bytes("a")).json == ["key": "YQ=="])
    }

    @Test("a transaction: each compare's target by name, a range's end, both branches")
    func transaction() {
        let request = EtcdRPC.TxnRequest(
            compare: [
                .init(key: bytes("k"), result: .equal, target: .modRevision(0)),
                .init(
                    key: bytes("a"), result: .less, target: .modRevision(9), rangeEnd: bytes("b")),
            ],
            success: [
                .put(.init(key: bytes("k"), value: bytes("v"))),
                .deleteRange(.init(key: bytes("d"))),
            ])
        #expect(
            request.json
                == [
                    "compare": [
                        ["key": "aw==", "target": "MOD", "result": "EQUAL", "mod_revision": "0"],
                        [
                            "key": "YQ==", "range_end": "Yg==", "target": "MOD", "result": "LESS",
                            "mod_revision": "9",
                        ],
                    ],
                    "success": [
                        ["request_put": ["key": "aw==", "value": "dg=="]],
                        ["request_delete_range": ["key": "ZA=="]],
                    ],
                ])
    }

    @Test("answers read into the types: header, key-values, a nested transaction's branch")
    func answers() throws {
        let answer = try EtcdRPC.TxnResponse(
            json: json(
                #"{"header":{"cluster_id":"14841639068965178418","revision":"12"},"succeeded":false,"#
                    + #""responses":[{"response_range":{"header":{"revision":"12"},"kvs":[{"key":"aw==","#
                    + #""value":"dg==","create_revision":"3","mod_revision":"11","version":"4"}],"count":"1"}}]}"#
            ))
        #expect(
            answer.header.clusterID == 14_841_639_068_965_178_418 && answer.header.revision == 12)
        #expect(!answer.succeeded)
        guard case .range(let range)? = answer.responses.first else {
            Issue.record("no range in \(answer.responses)")
            return
        }
        #expect(
            range.keyValues == [
                .init(
                    key: bytes("k"), value: bytes("v"), createRevision: 3, modRevision: 11,
                    version: 4)
            ])
        #expect(range.count == 1 && !range.more)
    }

    @Test("an answer that does not read is refused, naming what")
    func refused() throws {
        #expect(throws: GatewayRefusal.self) {
            try EtcdRPC.RangeResponse(json: json(#"{"kvs":[{"value":"dg=="}]}"#))
        }
        #expect(throws: GatewayRefusal.self) {
            try EtcdRPC.RangeResponse(json: json(#"{"header":{"revision":"twelve"}}"#))
        }
        #expect(throws: GatewayRefusal.self) {
            try EtcdRPC.TxnResponse(json: json(#"{"responses":[{"response_what":{}}]}"#))
        }
    }

    @Test("etcd's errors by their names, whatever the transport said them in")
    func codes() {
        func code(_ status: Int, _ message: String) -> EtcdError.Code? {
            EtcdError(endpoint: "e", reason: message, grpcCode: status).code
        }
        #expect(code(14, "etcdserver: no leader") == .noLeader)
        #expect(code(16, "etcdserver: invalid auth token") == .staleToken)
        #expect(code(9, "etcdserver: revision of auth store is old") == .staleToken)
        #expect(code(3, "etcdserver: too many operations in txn request") == .tooManyOperations)
        #expect(code(8, "grpc: received message larger than max (9 vs. 4)") == .requestTooLarge)
        #expect(code(11, "mvcc: required revision has been compacted") == .compacted)
        #expect(code(5, "something else") == .other(5))
        #expect(EtcdError(endpoint: "e", reason: "connection refused").code == nil)
        #expect(code(7, "etcdserver: permission denied")?.isRefusal == true)
        #expect(code(16, "a token refused")?.isRefusal == true)
        #expect(code(14, "etcdserver: no leader")?.isRefusal == false)
        #expect(EtcdClient.grpcCode(nil, status: 403) == 7)
        #expect(EtcdClient.grpcCode(.string("9"), status: 400) == 9)
    }
}
