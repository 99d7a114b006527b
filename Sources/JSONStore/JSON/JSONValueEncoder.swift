import FoundationEssentials

/// Encodes `Encodable` types to a `JSONValue`, keeping the order in which members are
/// encoded (the order of `CodingKeys` for synthesized conformances).
///
/// `Date` is written as an ISO 8601 string, `URL` as a string, `Data` as base64: the
/// counterparts of `JSONValueDecoder`.
public struct JSONValueEncoder: Sendable {
    public init() {}

    /// Encodes `value`.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-finite floating-point number, or a
    ///   value that encodes nothing.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let node = Node()
        try node.encode(value, codingPath: [])
        guard let result = node.value else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "\(T.self) encoded no value"))
        }
        return result
    }
}

/// A value being built. A class so nested containers can fill it in after they are handed
/// out, as `Encoder`'s API requires; it lives only for one `encode` call on one thread.
private final class Node {
    enum Kind { case empty, single, keyed, unkeyed }
    var kind = Kind.empty
    var single = JSONValue.null
    var keys: [String] = []
    var children: [String: Node] = [:]
    var elements: [Node] = []

    var value: JSONValue? {
        switch kind {
        case .empty: nil
        case .single: single
        case .keyed:
            .object(
                JSONObject(
                    uniqueMembers: keys.map {
                        JSONObject.Member(
                            key: $0, value: children[$0]!.value ?? .object(JSONObject()))
                    }))
        case .unkeyed: .array(elements.map { $0.value ?? .object(JSONObject()) })
        }
    }

    func child(forKey key: String) -> Node {
        kind = .keyed
        if let existing = children[key] { return existing }
        let node = Node()
        keys.append(key)
        children[key] = node
        return node
    }

    func appendChild() -> Node {
        kind = .unkeyed
        let node = Node()
        elements.append(node)
        return node
    }

    func set(_ value: JSONValue) {
        kind = .single
        single = value
    }

    func encode<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        switch value {
        case let v as JSONValue: set(v)
        case let v as JSONObject: set(.object(v))
        case let date as Date: set(.string(ISO8601.format(date)))
        case let url as URL: set(.string(url.absoluteString))
        case let data as Data: set(.string(data.base64EncodedString()))
        default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }

    func setNumber(_ value: Double, codingPath: [any CodingKey]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "JSON has no \(value)"))
        }
        set(.number(JSONNumber(value)))
    }
}

private struct NodeEncoder: Encoder, SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.kind = .keyed
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.kind = .unkeyed
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { node.set(.null) }
    func encode(_ value: Bool) { node.set(.bool(value)) }
    func encode(_ value: String) { node.set(.string(value)) }
    func encode(_ value: Double) throws { try node.setNumber(value, codingPath: codingPath) }
    func encode(_ value: Float) throws { try node.setNumber(Double(value), codingPath: codingPath) }
    func encode(_ value: Int) { node.set(.number(JSONNumber(value))) }
    func encode(_ value: Int8) { node.set(.number(JSONNumber(value))) }
    func encode(_ value: Int16) { node.set(.number(JSONNumber(value))) }
    func encode(_ value: Int32) { node.set(.number(JSONNumber(value))) }
    func encode(_ value: Int64) { node.set(.number(JSONNumber(value))) }
    func encode(_ value: UInt) { node.set(.number(JSONNumber(value))) }
    func encode(_ value: UInt8) { node.set(.number(JSONNumber(value))) }
    func encode(_ value: UInt16) { node.set(.number(JSONNumber(value))) }
    func encode(_ value: UInt32) { node.set(.number(JSONNumber(value))) }
    func encode(_ value: UInt64) { node.set(.number(JSONNumber(value))) }
    func encode<T: Encodable>(_ value: T) throws { try node.encode(value, codingPath: codingPath) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    func encodeNil(forKey key: Key) { node.child(forKey: key.stringValue).set(.null) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.child(forKey: key.stringValue).encode(value, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
            .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
            .unkeyedContainer()
    }

    func superEncoder() -> any Encoder {
        NodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
    }

    func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int { node.elements.count }

    func encodeNil() { node.appendChild().set(.null) }

    func encode<T: Encodable>(_ value: T) throws {
        try node.appendChild().encode(value, codingPath: codingPath)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        NodeEncoder(node: node.appendChild(), codingPath: codingPath).container(keyedBy: type)
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.appendChild(), codingPath: codingPath).unkeyedContainer()
    }

    func superEncoder() -> any Encoder {
        NodeEncoder(node: node.appendChild(), codingPath: codingPath)
    }
}
