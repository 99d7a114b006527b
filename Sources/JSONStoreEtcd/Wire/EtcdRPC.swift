/// The messages of etcd's v3 gRPC API this client sends and reads, as its
/// `api/etcdserverpb/rpc.proto` and `api/mvccpb/kv.proto` declare them (field numbers
/// from there). Only the fields this client uses are written; every field it knows is
/// read, and the rest skipped.
enum EtcdRPC {}

/// A message this client sends.
protocol ProtobufEncodable {
    func encode(into writer: inout ProtobufWriter)
}

extension ProtobufEncodable {
    /// The message's bytes.
    var encoded: [UInt8] { ProtobufWriter.message { encode(into: &$0) } }
}

/// A message this client reads.
protocol ProtobufDecodable {
    /// The message `reader` reads, each field checked.
    init(from reader: ProtobufReader) throws(ProtobufError)
}

extension ProtobufDecodable {
    /// The message that is the whole of `bytes`.
    init(decoding bytes: [UInt8]) throws(ProtobufError) {
        try self.init(from: ProtobufReader(bytes))
    }
}

extension EtcdRPC {
    /// What every answer begins with: the cluster and member that answered, and the store's
    /// revision then.
    struct ResponseHeader: ProtobufDecodable, Equatable {
        var clusterID: UInt64 = 0
        var memberID: UInt64 = 0
        var revision: Int64 = 0
        var raftTerm: UInt64 = 0

        init() {}

        init(from reader: ProtobufReader) throws(ProtobufError) {
            try reader.forEachField { (field, value) throws(ProtobufError) in
                switch field {
                case 1: clusterID = try reader.unsigned(value, field: field)
                case 2: memberID = try reader.unsigned(value, field: field)
                case 3: revision = try reader.integer(value, field: field)
                case 4: raftTerm = try reader.unsigned(value, field: field)
                default: break
                }
            }
        }
    }
}

extension EtcdClient.KeyValue: ProtobufDecodable {
    /// `mvccpb.KeyValue`; its lease is not kept.
    init(from reader: ProtobufReader) throws(ProtobufError) {
        var (key, value): ([UInt8], [UInt8]) = ([], [])
        var (created, modified, version): (Int64, Int64, Int64) = (0, 0, 0)
        try reader.forEachField { (field, raw) throws(ProtobufError) in
            switch field {
            case 1: key = try reader.bytes(raw, field: field)
            case 2: created = try reader.integer(raw, field: field)
            case 3: modified = try reader.integer(raw, field: field)
            case 4: version = try reader.integer(raw, field: field)
            case 5: value = try reader.bytes(raw, field: field)
            case 6: _ = try reader.integer(raw, field: field)
            default: break
            }
        }
        self.init(
            key: key, value: value, createRevision: created, modRevision: modified,
            version: version)
    }
}
