import JSONStore

/// A request as etcd's JSON gateway takes it: the proto's field names, bytes in base64,
/// 64-bit integers as strings, enums by name.
protocol GatewayEncodable {
    var json: JSONValue { get }
}

/// An answer as etcd's JSON gateway gives it (a field at its default is left out).
protocol GatewayDecodable {
    init(json: JSONValue) throws(GatewayRefusal)
}

/// What makes a gateway's answer unreadable.
struct GatewayRefusal: Error {
    let reason: String
}

extension JSONValue {
    /// Bytes, as base64.
    static func base64(_ bytes: [UInt8]) -> JSONValue { .string(Base64.encode(bytes)) }
    /// A 64-bit integer, as a string.
    static func int64(_ value: Int64) -> JSONValue { .string(String(value)) }
}

/// The object of `fields` whose values are not at their defaults (`nil`).
private func object(_ fields: [(String, JSONValue?)]) -> JSONValue {
    var object: JSONObject = [:]
    for case (let name, let value?) in fields { object[name] = value }
    return .object(object)
}

/// A field of bytes, left out when empty.
private func bytes(_ value: [UInt8]) -> JSONValue? { value.isEmpty ? nil : .base64(value) }
/// A field of a 64-bit integer, left out when 0.
private func int64(_ value: Int64) -> JSONValue? { value == 0 ? nil : .int64(value) }
/// A field of a boolean, left out when false.
private func bool(_ value: Bool) -> JSONValue? { value ? .bool(true) : nil }

extension EtcdRPC.RangeRequest: GatewayEncodable {
    var json: JSONValue {
        object([
            ("key", .base64(key)), ("range_end", bytes(rangeEnd)), ("limit", int64(limit)),
            ("revision", int64(revision)),
            (
                "sort_order",
                sortByKeyAscending ? "ASCEND" : sortByNewestModification ? "DESCEND" : nil
            ),
            ("sort_target", sortByNewestModification ? "MOD" : nil),
            ("keys_only", bool(keysOnly)), ("count_only", bool(countOnly)),
            ("min_mod_revision", int64(minModRevision)),
        ])
    }
}

extension EtcdRPC.PutRequest: GatewayEncodable {
    var json: JSONValue {
        object([("key", .base64(key)), ("value", bytes(value)), ("prev_kv", bool(previous))])
    }
}

extension EtcdRPC.DeleteRangeRequest: GatewayEncodable {
    var json: JSONValue {
        object([("key", .base64(key)), ("range_end", bytes(rangeEnd)), ("prev_kv", bool(previous))])
    }
}

extension EtcdRPC.TxnRequest: GatewayEncodable {
    var json: JSONValue {
        func operations(_ requests: [EtcdRPC.RequestOp]) -> JSONValue? {
            requests.isEmpty
                ? nil
                : .array(
                    requests.map { request in
                        switch request {
                        case .range(let range): ["request_range": range.json]
                        case .put(let put): ["request_put": put.json]
                        case .deleteRange(let delete): ["request_delete_range": delete.json]
                        }
                    })
        }
        let compares = compare.map { compare -> JSONValue in
            let (target, field, value): (String, String, JSONValue) =
                switch compare.target {
                case .version(let version): ("VERSION", "version", .int64(version))
                case .createRevision(let revision): ("CREATE", "create_revision", .int64(revision))
                case .modRevision(let revision): ("MOD", "mod_revision", .int64(revision))
                case .value(let value): ("VALUE", "value", .base64(value))
                }
            let result =
                switch compare.result {
                case .equal: "EQUAL"
                case .greater: "GREATER"
                case .less: "LESS"
                case .notEqual: "NOT_EQUAL"
                }
            return object([
                ("key", .base64(compare.key)), ("range_end", bytes(compare.rangeEnd)),
                ("target", .string(target)), ("result", .string(result)), (field, value),
            ])
        }
        return object([
            ("compare", compares.isEmpty ? nil : .array(compares)),
            ("success", operations(success)), ("failure", operations(failure)),
        ])
    }
}

extension EtcdRPC.AuthenticateRequest: GatewayEncodable {
    var json: JSONValue { ["name": .string(name), "password": .string(password)] }
}

/// The empty request (`Maintenance.Status`'s).
struct EmptyRequest: ProtobufEncodable, GatewayEncodable {
    func encode(into writer: inout ProtobufWriter) {}
    var json: JSONValue { .object([:]) }
}
