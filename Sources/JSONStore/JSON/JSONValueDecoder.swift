import FoundationEssentials

/// Decodes `Decodable` types from a `JSONValue`, without going through bytes again.
///
/// `Date` is read from an ISO 8601 string (with or without fractional seconds), `URL`
/// from a string, `Data` from base64: what a person writes in a hand-edited file.
///
/// For example:
///
/// ```swift
/// struct Task: Codable { var title: String; var done: Bool }
/// let task = try JSONValueDecoder().decode(Task.self, from: ["title": "Tea", "done": false])
/// ```
public struct JSONValueDecoder: Sendable {
    public init() {}

    /// Decodes a `T` from `value`.
    ///
    /// - Throws: `DecodingError` whose coding path names the member at fault.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: []).decodeValue(type)
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch(JSONObject.self) }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            .init(codingPath: codingPath, debugDescription: "expected \(expected(type)), found \(value.typeName)"))
    }

    private func expected(_ type: Any.Type) -> String {
        switch type {
        case is JSONObject.Type: "an object"
        case is [JSONValue].Type: "an array"
        case is String.Type, is Date.Type, is URL.Type, is Data.Type: "a string"
        case is Bool.Type: "a boolean"
        default: "a number"
        }
    }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let b) = value else { throw mismatch(type) }
        return b
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let s) = value else { throw mismatch(type) }
        return s
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let n) = value else { throw mismatch(type) }
        return n.doubleValue
    }

    func decode(_ type: Float.Type) throws -> Float {
        guard case .number(let n) = value, let f = Float(n.text) else { throw mismatch(type) }
        return f
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let n) = value else { throw mismatch(type) }
        if let i = I(n.text) { return i }
        if let i = n.intValue, let exact = I(exactly: i) { return exact }
        throw DecodingError.dataCorrupted(
            .init(codingPath: codingPath, debugDescription: "\(n.text) does not fit in \(type)"))
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is JSONValue.Type:
            return value as! T
        case is JSONObject.Type:
            guard case .object(let object) = value else { throw mismatch(type) }
            return object as! T
        case is Date.Type:
            let text = try decode(String.self)
            guard let date = ISO8601.parse(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "\"\(text)\" is not an ISO 8601 date"))
            }
            return date as! T
        case is URL.Type:
            let text = try decode(String.self)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "\"\(text)\" is not a URL"))
            }
            return url as! T
        case is Data.Type:
            let text = try decode(String.self)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "the string is not base64"))
            }
            return data as! T
        default:
            return try T(from: self)
        }
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func child(_ key: Key) throws -> ValueDecoder {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: codingPath, debugDescription: "missing member \"\(key.stringValue)\""))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { (object[key.stringValue] ?? .null) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try child(key).decodeValue(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = object[key.stringValue], value != .null else { return nil }
        return try ValueDecoder(value: value, codingPath: codingPath + [key]).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
        throws -> KeyedDecodingContainer<NestedKey>
    {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: object["super"] ?? .null, codingPath: codingPath + [AnyKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> ValueDecoder {
        let key = AnyKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONValue.self,
                .init(codingPath: codingPath + [key], debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], codingPath: codingPath + [key])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next().decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type)
        throws -> KeyedDecodingContainer<NestedKey>
    {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

/// ISO 8601 dates as people write them: `2026-11-29T15:27:36Z`, with or without
/// fractional seconds, with `Z` or an offset.
enum ISO8601 {
    static func parse(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
            return date
        }
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle().year().month().day().parse(text)
    }

    static func format(_ date: Date) -> String {
        let whole = date.timeIntervalSinceReferenceDate.rounded(.down) == date.timeIntervalSinceReferenceDate
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
    }
}
