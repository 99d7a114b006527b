/// An object's members on a tape, for a `Decodable` type's keys: each looked up in the
/// text by its bytes, from where the last one was found.
struct TapeKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let document: TapeDocument
    /// The object's entry.
    let object: Int
    let codingPath: [any CodingKey]

    var allKeys: [Key] { document.keys(of: object).compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { document.member(key.stringValue, of: object) != nil }

    private func child(_ key: Key) throws -> TapeDecoder {
        guard let value = document.member(key.stringValue, of: object) else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "missing member \"\(key.stringValue)\""))
        }
        return TapeDecoder(
            document: document, index: value, path: TapePath(parent: codingPath, last: .key(key)))
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = document.member(key.stringValue, of: object) else { return true }
        return document.kind(value) == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try child(key).decodeValue(type)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try child(key).decode(type)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try child(key).decode(type)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try child(key).decode(type)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try child(key).decode(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    // Without these the standard library's defaults would look the member up three times
    // (contains, decodeNil, decode): every optional scalar a type declares.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try decodeIfPresent(type, forKey: key, generic: ())
    }

    private func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key, generic: Void)
        throws -> T?
    {
        guard let value = document.member(key.stringValue, of: object),
            document.kind(value) != .null
        else { return nil }
        return try TapeDecoder(
            document: document, index: value, path: TapePath(parent: codingPath, last: .key(key))
        ).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
        throws -> KeyedDecodingContainer<NestedKey>
    {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    // `super` and its like are rare: the general road, with the object made whole.
    private var whole: KeyedDecoding<Key> {
        KeyedDecoding(object: document.value(at: object).objectValue ?? [:], codingPath: codingPath)
    }

    func superDecoder() throws -> any Decoder { try whole.superDecoder() }

    func superDecoder(forKey key: Key) throws -> any Decoder { try whole.superDecoder(forKey: key) }
}

/// An array's elements on a tape, decoded in turn.
struct TapeUnkeyedDecoding: UnkeyedDecodingContainer {
    let document: TapeDocument
    let codingPath: [any CodingKey]
    let count: Int?
    var currentIndex = 0
    /// The entry of the element at `currentIndex`.
    private var entry: Int

    init(document: TapeDocument, array: Int, codingPath: [any CodingKey]) {
        self.document = document
        self.codingPath = codingPath
        count = document.tape.entries[array].count
        entry = array + 1
    }

    var isAtEnd: Bool { currentIndex >= count! }

    private mutating func next() throws -> TapeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONValue.self,
                .init(
                    codingPath: codingPath + [AnyKey(intValue: currentIndex)],
                    debugDescription: "the array has no more elements"))
        }
        let decoder = TapeDecoder(
            document: document, index: entry,
            path: TapePath(parent: codingPath, last: .index(currentIndex)))
        entry = document.tape.next(after: entry)
        currentIndex += 1
        return decoder
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, document.kind(entry) == .null else { return false }
        entry += 1
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next().decodeValue(type)
    }

    /// A string element, directly when it is one (as in `[String]`).
    mutating func decode(_ type: String.Type) throws -> String {
        guard !isAtEnd, document.kind(entry) == .string else { return try next().decode(type) }
        let s = document.string(at: entry)
        entry += 1
        currentIndex += 1
        return s
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
