import FoundationEssentials

/// Decodes `Decodable` types straight from JSON text and its tape (`JSONTape`): strings,
/// numbers and booleans are read from the bytes where a type asks for them, and no
/// `JSONValue` is made. What the tape does not read itself (dates, URLs, data, numbers
/// that are not small integers, every mismatch and its error) goes to `ValueDecoder` with
/// the scalar made (a container only as its kind), so both decoders agree on every input.
struct TapeDecoder: Decoder, SingleValueDecodingContainer {
    let document: TapeDocument
    /// The value's entry in the tape.
    let index: Int
    /// Where the value is, its last step kept apart so a member or element decoded
    /// directly builds no path.
    let path: TapePath

    var codingPath: [any CodingKey] { path.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The decoder of the same value on the general road: a scalar made, a container as
    /// its kind only (what the general road does with one here is say it is not a scalar).
    var whole: ValueDecoder {
        let value: JSONValue =
            switch document.kind(index) {
            case .object: .object([:])
            case .array: .array([])
            default: document.value(at: index)
            }
        return ValueDecoder(value: value, codingPath: codingPath)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard document.kind(index) == .object else { return try whole.container(keyedBy: type) }
        return KeyedDecodingContainer(
            TapeKeyedDecoding<Key>(document: document, object: index, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard document.kind(index) == .array else { return try whole.unkeyedContainer() }
        return TapeUnkeyedDecoding(document: document, array: index, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { document.kind(index) == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch document.kind(index) {
        case .true: true
        case .false: false
        default: try whole.decode(type)
        }
    }

    func decode(_ type: String.Type) throws -> String {
        guard document.kind(index) == .string else { return try whole.decode(type) }
        return document.string(at: index)
    }

    func decode(_ type: Double.Type) throws -> Double {
        // Integers of up to 15 digits are exact as a `Double`.
        if let i = document.smallInteger(at: index), i.magnitude < 1_000_000_000_000_000 {
            return Double(i)
        }
        return try whole.decode(type)
    }

    func decode(_ type: Float.Type) throws -> Float { try whole.decode(type) }
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

    private func integer<I: FixedWidthInteger & Decodable>(_ type: I.Type) throws -> I {
        if let i = document.smallInteger(at: index), let exact = I(exactly: i) { return exact }
        return try whole.decodeValue(type)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        // Metatypes compared, not cast: this runs for every value decoded.
        if T.self == String.self {
            return try decode(String.self) as! T
        } else if T.self == Date.self || T.self == URL.self || T.self == Data.self {
            return try whole.decodeValue(type)
        } else {
            return try T(from: self)
        }
    }
}

/// A coding path whose last step is kept apart from the rest, so making a member's or an
/// element's decoder allocates nothing; the array is built only when it is asked for.
struct TapePath {
    /// The steps before the last.
    let parent: [any CodingKey]
    let last: Step?

    enum Step {
        case key(any CodingKey)
        case index(Int)
    }

    static let root = TapePath(parent: [], last: nil)

    var codingPath: [any CodingKey] {
        switch last {
        case nil: parent
        case .key(let key)?: parent + [key]
        case .index(let index)?: parent + [AnyKey(intValue: index)]
        }
    }
}
