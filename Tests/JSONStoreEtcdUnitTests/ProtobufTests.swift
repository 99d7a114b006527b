import Testing

@testable import JSONStoreEtcd

/// Protocol Buffers' wire format as etcd's gRPC API uses it: bytes checked against the
/// encoding the format's documentation gives, and a hostile server's bytes refused, not
/// trapped on.
@Suite("Protobuf: etcd's messages on the wire")
struct ProtobufTests {
    func varint(_ value: UInt64) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.varint(value)
        return writer.bytes
    }

    @Test("varints: seven bits a byte, lowest first")
    func varints() {
        #expect(varint(0) == [0x00])
        #expect(varint(1) == [0x01])
        #expect(varint(127) == [0x7F])
        #expect(varint(150) == [0x96, 0x01])
        #expect(varint(300) == [0xAC, 0x02])
        #expect(varint(UInt64.max) == Array(repeating: 0xFF, count: 9) + [0x01])
        // A negative int64 takes ten bytes; read back, it is the same number.
        let minusOne = ProtobufWriter.message { $0.integer(3, -1) }
        #expect(minusOne == [0x18] + Array(repeating: 0xFF, count: 9) + [0x01])
        var reader = ProtobufReader(minusOne)
        let field = try? reader.next()
        #expect(field?.field == 3)
        #expect(field.flatMap { try? reader.integer($0.value, field: 3) } == -1)
    }

    @Test("requests: fields at their default left out, a oneof's member written at zero")
    func requests() {
        let range = EtcdRPC.RangeRequest(
            key: Array("foo".utf8), rangeEnd: Array("fop".utf8), limit: 10)
        #expect(
            range.encoded == [0x0A, 3] + Array("foo".utf8) + [0x12, 3] + Array("fop".utf8)
                + [0x18, 10])
        #expect(EtcdRPC.RangeRequest(key: []).encoded == [])
        // A create-only write: the key's modification revision compared with 0, which
        // must be there to say which member of the target is set.
        let compare = EtcdRPC.Compare(key: [0x6B], result: .equal, target: .modRevision(0))
        #expect(compare.encoded == [0x10, 0x02, 0x1A, 0x01, 0x6B, 0x30, 0x00])
        // An empty progress request is still a request.
        #expect(EtcdRPC.WatchRequest.progress.encoded == [0x1A, 0x00])
        let txn = EtcdRPC.TxnRequest(
            compare: [compare],
            success: [.put(.init(key: [0x6B], value: [0x76]))],
            failure: [.range(.init(key: [0x6B]))])
        #expect(
            txn.encoded == [0x0A, 7] + compare.encoded + [
                0x12, 8, 0x12, 6, 0x0A, 1, 0x6B, 0x12, 1, 0x76,
            ]
                + [0x1A, 5, 0x0A, 3, 0x0A, 1, 0x6B])
    }

    @Test("requests are the bytes protoc writes for them")
    func protocBytes() {
        // `protoc --encode` (Debian's protobuf-compiler) of these messages in text format,
        // declared with etcd's field numbers.
        let txn = EtcdRPC.TxnRequest(
            compare: [.init(key: Array("k".utf8), result: .equal, target: .modRevision(0))],
            success: [.put(.init(key: Array("k".utf8), value: Array("v".utf8)))],
            failure: [.range(.init(key: Array("k".utf8)))])
        #expect(Hex.text(txn.encoded) == "0a0710021a016b3000120812060a016b1201761a050a030a016b")
        #expect(Hex.text(EtcdRPC.WatchRequest.progress.encoded) == "1a00")
        let create = EtcdRPC.WatchRequest.create(
            key: Array("a/".utf8), rangeEnd: Array("a0".utf8), startRevision: 17,
            progressNotify: true)
        #expect(Hex.text(create.encoded) == "0a0e0a02612f12026130181120013001")
        #expect(Hex.text(EtcdRPC.WatchRequest.cancel(watchID: 3).encoded) == "12020803")
        let range = EtcdRPC.RangeRequest(
            key: Array("foo".utf8), rangeEnd: Array("fop".utf8), limit: 10, revision: -1,
            sortByKeyAscending: true)
        #expect(Hex.text(range.encoded) == "0a03666f6f1203666f70180a20ffffffffffffffffff012801")
    }

    @Test("answers protoc writes read as their text says")
    func protocAnswers() throws {
        // `protoc --encode` of a range's answer: a header, two keys (the first with a
        // lease), more to come, three in all.
        let range = try EtcdRPC.RangeResponse(
            decoding: Hex.bytes(
                "0a1a08b298eaf1948386fccd0110cdd2918bd2b881cf8e01182a200212110a03612f781005"
                    + "180920022a027b7d3007120b0a03612f7910061806200118012003"))
        #expect(range.header.clusterID == 14_841_639_068_965_178_418)
        #expect(range.header.memberID == 10_276_657_743_932_975_437)
        #expect(range.header.revision == 42 && range.header.raftTerm == 2)
        #expect(
            range.keyValues == [
                .init(
                    key: Array("a/x".utf8), value: Array("{}".utf8), createRevision: 5,
                    modRevision: 9, version: 2),
                .init(
                    key: Array("a/y".utf8), value: [], createRevision: 6, modRevision: 6, version: 1
                ),
            ])
        #expect(range.more && range.count == 3)
        // A watch's answer: a deletion with the value before it, then a creation.
        let watch = try EtcdRPC.WatchResponse(
            decoding: Hex.bytes(
                "0a02180c10015a1c080112070a03612f78180c1a0f0a03612f781005180920022a027b7d5a"
                    + "11120f0a03612f7a100c180c20012a025b5d"))
        #expect(watch.header.revision == 12 && watch.watchID == 1)
        #expect(watch.events.map(\.kind) == [.delete, .put])
        #expect(watch.events[0].keyValue.key == Array("a/x".utf8))
        #expect(watch.events[0].previous?.value == Array("{}".utf8))
        #expect(watch.events[1].keyValue.value == Array("[]".utf8))
        #expect(watch.events[1].previous == nil)
        // A watch cancelled because its revision was compacted away.
        let compacted = try EtcdRPC.WatchResponse(
            decoding: Hex.bytes(
                "0a02181e100120012814322a6d7663633a207265717569726564207265766973696f6e"
                    + "20686173206265656e20636f6d706163746564"))
        #expect(compacted.canceled && compacted.compactRevision == 20)
        #expect(compacted.cancelReason == "mvcc: required revision has been compacted")
    }

    /// A `mvccpb.KeyValue`'s bytes, as etcd writes it.
    func encode(_ kv: EtcdClient.KeyValue, into writer: inout ProtobufWriter) {
        writer.bytes(1, kv.key)
        writer.integer(2, kv.createRevision)
        writer.integer(3, kv.modRevision)
        writer.integer(4, kv.version)
        writer.bytes(5, kv.value)
        writer.integer(6, 77)  // a lease, not kept
    }

    func rangeResponse(_ kvs: [EtcdClient.KeyValue], revision: Int64, more: Bool) -> [UInt8] {
        ProtobufWriter.message { w in
            w.message(1) {
                $0.unsigned(1, 0xDEAD)
                $0.integer(3, revision)
            }
            for kv in kvs { w.message(2) { encode(kv, into: &$0) } }
            w.bool(3, more)
            w.integer(4, Int64(kvs.count))
        }
    }

    func randomKeyValue<G: RandomNumberGenerator>(_ g: inout G) -> EtcdClient.KeyValue {
        func bytes() -> [UInt8] {
            (0..<Int.random(in: 0...40, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g)
            }
        }
        return EtcdClient.KeyValue(
            key: bytes(), value: bytes(),
            createRevision: Int64.random(in: 0...Int64.max, using: &g),
            modRevision: Int64.random(in: 0...1 << 40, using: &g),
            version: Int64.random(in: 0...3, using: &g))
    }

    @Test("answers read back as written, whatever their bytes; unknown fields skipped")
    func answers() throws {
        var g = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let kvs = (0..<Int.random(in: 0...8)).map { _ in randomKeyValue(&g) }
            let bytes = rangeResponse(kvs, revision: 42, more: kvs.count > 3)
            let read = try EtcdRPC.RangeResponse(decoding: bytes)
            #expect(read.keyValues == kvs)
            #expect(read.header.revision == 42 && read.header.clusterID == 0xDEAD)
            #expect(read.more == (kvs.count > 3) && read.count == Int64(kvs.count))
        }
        // A newer etcd's fields, of every wire type, before and after the known ones.
        var unknown = ProtobufWriter()
        unknown.integer(99, 5)
        unknown.bytes(100, [1, 2, 3])
        let fixed64 = varint(101 << 3 | 1) + Array(repeating: 7, count: 8)
        let fixed32 = varint(102 << 3 | 5) + [1, 2, 3, 4]
        let kv = EtcdClient.KeyValue(
            key: [1], value: [2], createRevision: 3, modRevision: 4, version: 5)
        let bytes =
            unknown.bytes + fixed64 + rangeResponse([kv], revision: 9, more: false) + fixed32
        let read = try EtcdRPC.RangeResponse(decoding: bytes)
        #expect(read.keyValues == [kv] && read.header.revision == 9)
    }

    func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try EtcdRPC.RangeResponse(decoding: bytes)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("a hostile server's bytes are refused with where and why")
    func refused() {
        let elevenBytes: [UInt8] = [0x20] + Array(repeating: 0x80, count: 10) + [0x01]
        #expect(refusal(elevenBytes) == "a varint longer than 64 bits")
        #expect(
            refusal([0x20] + Array(repeating: 0xFF, count: 9) + [0x02])
                == "a varint longer than 64 bits")
        #expect(refusal([0x20, 0x80]) == "a varint cut short")
        #expect(refusal([0x12, 0x05, 0x01]) == "a length of 5 past the message's end")
        #expect(
            refusal([0x12] + varint(UInt64.max))
                == "a length of \(UInt64.max) past the message's end")
        for type: UInt8 in [3, 4, 6, 7] {
            #expect(refusal([1 << 3 | type]) == "field 1 of wire type \(type)")
        }
        #expect(refusal([0x00, 0x01]) == "a field numbered 0")
        #expect(refusal([0x09] + Array(repeating: 0, count: 7)) == "a fixed value cut short")
        // A known field of another type than declared: `more` (3) as bytes, `kvs` (2) as
        // an integer.
        #expect(refusal([0x1A, 0x00]) == "field 3 is not a boolean")
        #expect(refusal([0x10, 0x01]) == "field 2 is not a message")
        // A string that is not UTF-8, where a string is declared.
        let reason = ProtobufWriter.message { $0.bytes(6, [0xC3, 0x28]) }
        #expect(throws: ProtobufError.self) { try EtcdRPC.WatchResponse(decoding: reason) }
        // An event of no type etcd has, or of no key.
        let event = ProtobufWriter.message { w in
            w.message(11) {
                $0.integer(1, 7)
                $0.message(2) { $0.bytes(1, [1]) }
            }
        }
        #expect(throws: ProtobufError("an event of type 7", at: 2)) {
            try EtcdRPC.WatchResponse(decoding: event)
        }
    }

    @Test("transactions nest, up to a depth: deeper is refused, not a deep stack")
    func nesting() throws {
        func nested(_ depth: Int) -> [UInt8] {
            var inner = ProtobufWriter.message { $0.bool(2, true) }
            for _ in 0..<depth {
                let txn = inner
                // A message field's bytes are laid out as a `bytes` field's.
                let op = ProtobufWriter.message { $0.bytes(4, txn) }
                inner = ProtobufWriter.message { $0.bytes(3, op) }
            }
            return inner
        }
        // Each level is two messages (a response op, then its transaction).
        let fine = try EtcdRPC.TxnResponse(decoding: nested(ProtobufReader.deepest / 2))
        var level = fine
        var depth = 0
        while case .transaction(let next)? = level.responses.first {
            level = next
            depth += 1
        }
        #expect(depth == ProtobufReader.deepest / 2 && level.succeeded)
        #expect(throws: ProtobufError.self) {
            try EtcdRPC.TxnResponse(decoding: nested(ProtobufReader.deepest / 2 + 1))
        }
        // Two thousand levels: refused at the limit, the stack never near its end.
        #expect(throws: ProtobufError.self) { try EtcdRPC.TxnResponse(decoding: nested(2_000)) }
    }

    @Test("every cut and every changed byte of an answer is read or refused, never a trap")
    func damaged() {
        var g = SystemRandomNumberGenerator()
        let kvs = (0..<4).map { _ in randomKeyValue(&g) }
        let bytes = rangeResponse(kvs, revision: 7, more: true)
        // Cut between fields, an answer reads as its first fields; cut inside one, it is
        // refused.
        var refused = 0
        for length in 0..<bytes.count {
            if let read = try? EtcdRPC.RangeResponse(decoding: Array(bytes.prefix(length))) {
                #expect(kvs.starts(with: read.keyValues), "cut at \(length)")
            } else {
                refused += 1
            }
        }
        #expect(refused > bytes.count / 2)
        for k in bytes.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var changed = bytes
                changed[k] ^= flip
                _ = refusal(changed)
            }
        }
    }
}
