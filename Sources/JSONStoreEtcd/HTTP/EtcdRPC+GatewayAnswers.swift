import JSONStore

extension JSONValue {
    /// A 64-bit integer field as the gateway writes it: a string (or a number), absent
    /// when 0; `nil` for anything else.
    var int64Field: Int64? {
        switch self {
        case .string(let text): Int64(text)
        case .number(let number): Int64(number.text)
        default: nil
        }
    }
}

/// The field `name` of `json`, an integer (0 when absent).
private func int64(_ json: JSONValue, _ name: String) throws(GatewayRefusal) -> Int64 {
    guard let field = json[name] else { return 0 }
    guard let value = field.int64Field else {
        throw GatewayRefusal(reason: "\(name) is not an integer")
    }
    return value
}

/// The field `name` of `json`, an unsigned integer (0 when absent).
private func uint64(_ json: JSONValue, _ name: String) throws(GatewayRefusal) -> UInt64 {
    guard let field = json[name] else { return 0 }
    let text: String? =
        switch field {
        case .string(let text): text
        case .number(let number): number.text
        default: nil
        }
    guard let value = text.flatMap({ UInt64($0) }) else {
        throw GatewayRefusal(reason: "\(name) is not an unsigned integer")
    }
    return value
}

/// The key-values of the field `name` of `json` (none when absent).
private func keyValues(_ json: JSONValue, _ name: String) throws(GatewayRefusal)
    -> [EtcdClient.KeyValue]
{
    var found: [EtcdClient.KeyValue] = []
    for value in json[name]?.arrayValue ?? [] {
        guard let keyValue = EtcdClient.keyValue(value) else {
            throw GatewayRefusal(reason: "a key-value of \(name) without a key in base64")
        }
        found.append(keyValue)
    }
    return found
}

extension EtcdRPC.ResponseHeader: GatewayDecodable {
    init(json: JSONValue) throws(GatewayRefusal) {
        self.init()
        let header = json["header"] ?? .object([:])
        clusterID = try uint64(header, "cluster_id")
        memberID = try uint64(header, "member_id")
        revision = try int64(header, "revision")
        raftTerm = try uint64(header, "raft_term")
    }
}

extension EtcdRPC.RangeResponse: GatewayDecodable {
    init(json: JSONValue) throws(GatewayRefusal) {
        self.init()
        header = try EtcdRPC.ResponseHeader(json: json)
        keyValues = try JSONStoreEtcd.keyValues(json, "kvs")
        more = json["more"] == .bool(true)
        count = try int64(json, "count")
    }
}

extension EtcdRPC.PutResponse: GatewayDecodable {
    init(json: JSONValue) throws(GatewayRefusal) {
        self.init()
        header = try EtcdRPC.ResponseHeader(json: json)
        previous = json["prev_kv"].flatMap(EtcdClient.keyValue)
    }
}

extension EtcdRPC.DeleteRangeResponse: GatewayDecodable {
    init(json: JSONValue) throws(GatewayRefusal) {
        self.init()
        header = try EtcdRPC.ResponseHeader(json: json)
        deleted = try int64(json, "deleted")
        previous = try JSONStoreEtcd.keyValues(json, "prev_kvs")
    }
}

extension EtcdRPC.TxnResponse: GatewayDecodable {
    init(json: JSONValue) throws(GatewayRefusal) {
        self.init()
        header = try EtcdRPC.ResponseHeader(json: json)
        succeeded = json["succeeded"] == .bool(true)
        for answer in json["responses"]?.arrayValue ?? [] {
            if let range = answer["response_range"] {
                responses.append(.range(try EtcdRPC.RangeResponse(json: range)))
            } else if let put = answer["response_put"] {
                responses.append(.put(try EtcdRPC.PutResponse(json: put)))
            } else if let delete = answer["response_delete_range"] {
                responses.append(.deleteRange(try EtcdRPC.DeleteRangeResponse(json: delete)))
            } else if let nested = answer["response_txn"] {
                responses.append(.transaction(try EtcdRPC.TxnResponse(json: nested)))
            } else {
                throw GatewayRefusal(reason: "a transaction's answer of no kind known")
            }
        }
    }
}

extension EtcdRPC.AuthenticateResponse: GatewayDecodable {
    init(json: JSONValue) throws(GatewayRefusal) {
        self.init()
        header = try EtcdRPC.ResponseHeader(json: json)
        token = json["token"]?.stringValue ?? ""
    }
}

extension EtcdRPC.StatusResponse: GatewayDecodable {
    init(json: JSONValue) throws(GatewayRefusal) {
        self.init()
        header = try EtcdRPC.ResponseHeader(json: json)
        version = json["version"]?.stringValue ?? ""
        databaseSize = try int64(json, "dbSize")
        leader = try uint64(json, "leader")
        raftIndex = try uint64(json, "raftIndex")
        raftTerm = try uint64(json, "raftTerm")
        errors = (json["errors"]?.arrayValue ?? []).compactMap(\.stringValue)
        isLearner = json["isLearner"] == .bool(true)
    }
}
