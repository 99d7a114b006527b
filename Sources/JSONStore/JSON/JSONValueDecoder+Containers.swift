import FoundationEssentials

/// An object's members, for a `Decodable` type's keys.
struct KeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func child(_ key: Key) throws -> ValueDecoder {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "missing member \"\(key.stringValue)\""))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { (object[key.stringValue] ?? .null) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try child(key).decodeValue(type)
    }

    // The common scalars take a direct road: a match makes no decoder and no coding path;
    // anything else takes the general one, which builds the path for its error.

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        if case .string(let s)? = object[key.stringValue] { return s }
        return try child(key).decode(type)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if case .bool(let b)? = object[key.stringValue] { return b }
        return try child(key).decode(type)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        if case .number(let n)? = object[key.stringValue], let i = Int(n.text) { return i }
        return try child(key).decode(type)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        if case .number(let n)? = object[key.stringValue], let d = Double(n.text) { return d }
        return try child(key).decode(type)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        switch object[key.stringValue] {
        case .string(let s)?: return s
        case nil, .null?: return nil
        default: return try child(key).decode(type)
        }
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        switch object[key.stringValue] {
        case nil, .null?: return nil
        case .number(let n)?: if let i = Int(n.text) { return i }
        default: break
        }
        return try child(key).decode(type)
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
        ValueDecoder(
            value: object["super"] ?? .null, codingPath: codingPath + [AnyKey(stringValue: "super")]
        )
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

/// An array's elements, decoded in turn.
struct UnkeyedDecoding: UnkeyedDecodingContainer {
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
                .init(
                    codingPath: codingPath + [key],
                    debugDescription: "the array has no more elements"))
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

    /// A string element, directly when it is one (as in `[String]`).
    mutating func decode(_ type: String.Type) throws -> String {
        if currentIndex < elements.count, case .string(let s) = elements[currentIndex] {
            currentIndex += 1
            return s
        }
        return try next().decode(type)
    }

    /// An integer element, directly when it is one (as in `[Int]`).
    mutating func decode(_ type: Int.Type) throws -> Int {
        if currentIndex < elements.count, case .number(let n) = elements[currentIndex],
            let i = Int(n.text)
        {
            currentIndex += 1
            return i
        }
        return try next().decode(type)
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
