import FoundationEssentials

/// Decodes `Decodable` types from a `JSONValue`, without going through bytes again.
///
/// `Date` is read from an ISO 8601 string (with or without fractional seconds), `URL`
/// from a string, `Data` from base64: what a person writes in a hand-edited file.
///
/// For example:
///
/// ```swift
/// struct Todo: Codable { var title: String; var done: Bool }
/// let todo = try JSONValueDecoder().decode(Todo.self, from: ["title": "Tea", "done": false])
/// ```
public struct JSONValueDecoder: Sendable {
    public init() {}

    /// Decodes a `T` from `value`.
    ///
    /// - Throws: `DecodingError` whose coding path names the member at fault.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: []).decodeValue(type)
    }

    /// Decodes a `T` from the JSON text `bytes`, read straight from them: the text is
    /// checked as `reader` reads it, but no `JSONValue` is made, only the members and
    /// elements `T` asks for.
    ///
    /// - Throws: `JSONSyntaxError` naming the line and column where the text is not JSON;
    ///   `DecodingError` whose coding path names the member at fault.
    public func decode<T: Decodable>(
        _ type: T.Type, fromJSON bytes: [UInt8], reader: JSONReader = JSONReader()
    ) throws -> T {
        try bytes.withUnsafeBufferPointer { try decode(type, fromJSON: $0, reader: reader) }
    }

    /// Decodes a `T` from the JSON text `data` (see `decode(_:fromJSON:reader:)`).
    public func decode<T: Decodable>(
        _ type: T.Type, fromJSON data: Data, reader: JSONReader = JSONReader()
    ) throws -> T {
        try data.withUnsafeBytes {
            try decode(type, fromJSON: $0.assumingMemoryBound(to: UInt8.self), reader: reader)
        }
    }

    private func decode<T: Decodable>(
        _ type: T.Type, fromJSON bytes: UnsafeBufferPointer<UInt8>, reader: JSONReader
    ) throws -> T {
        try TapeDocument(copying: bytes, tape: try reader.tape(bytes)).decode(type)
    }
}

/// A key of an array element or a `super` member, in a coding path.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch(JSONObject.self) }
        return KeyedDecodingContainer(KeyedDecoding<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self) }
        return UnkeyedDecoding(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            .init(
                codingPath: codingPath,
                debugDescription: "expected \(expected(type)), found \(value.typeName)"))
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
        // Metatypes compared, not cast: this runs for every value decoded.
        if T.self == JSONValue.self {
            return value as! T
        } else if T.self == JSONObject.self {
            guard case .object(let object) = value else { throw mismatch(type) }
            return object as! T
        } else if T.self == Date.self {
            let text = try decode(String.self)
            guard let date = ISO8601.parse(text) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: codingPath,
                        debugDescription: "\"\(text)\" is not an ISO 8601 date"))
            }
            return date as! T
        } else if T.self == URL.self {
            let text = try decode(String.self)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "\"\(text)\" is not a URL"))
            }
            return url as! T
        } else if T.self == Data.self {
            let text = try decode(String.self)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "the string is not base64"))
            }
            return data as! T
        } else {
            return try T(from: self)
        }
    }
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
        let whole =
            date.timeIntervalSinceReferenceDate.rounded(.down)
            == date.timeIntervalSinceReferenceDate
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
    }
}
