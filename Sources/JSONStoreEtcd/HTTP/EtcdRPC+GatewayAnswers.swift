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
    for value in json[name]?.arrayValue ?? [] { found.append(try EtcdClient.KeyValue(json: value)) }
    return found
}

extension EtcdClient.KeyValue: GatewayDecodable {
    /// `mvccpb.KeyValue` as the gateway writes it: its key and value in base64.
    init(json: JSONValue) throws(GatewayRefusal) {
        guard case .string(let key)? = json["key"], let keyBytes = Base64.decode(key) else {
            throw GatewayRefusal(reason: "a key-value without a key in base64")
        }
        let value = try json["value"].map { field throws(GatewayRefusal) in
            guard let text = field.stringValue, let bytes = Base64.decode(text) else {
                throw GatewayRefusal(reason: "a key-value whose value is not base64")
            }
            return bytes
        }
        self.init(
            key: keyBytes, value: value ?? [], createRevision: try int64(json, "create_revision"),
            modRevision: try int64(json, "mod_revision"), version: try int64(json, "version"))
    }
}

extension EtcdRPC.WatchResponse: GatewayDecodable {
    /// A watch's answer as the gateway's stream writes it (its `result`).
    init(json: JSONValue) throws(GatewayRefusal) {
        self.init()
        header = try EtcdRPC.ResponseHeader(json: json)
        watchID = try int64(json, "watch_id")
        created = json["created"] == .bool(true)
        canceled = json["canceled"] == .bool(true)
        compactRevision = try int64(json, "compact_revision")
        cancelReason = json["cancel_reason"]?.stringValue ?? ""
        fragment = json["fragment"] == .bool(true)
        for event in json["events"]?.arrayValue ?? [] {
            guard let kv = event["kv"] else {
                throw GatewayRefusal(reason: "a watch's event without its key-value")
            }
            events.append(
                EtcdWatch.Event(
                    kind: event["type"]?.stringValue == "DELETE" ? .delete : .put,
                    keyValue: try EtcdClient.KeyValue(json: kv),
                    previous: try event["prev_kv"].map(EtcdClient.KeyValue.init(json:))))
        }
    }
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
        previous = try json["prev_kv"].map(EtcdClient.KeyValue.init(json:))
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
