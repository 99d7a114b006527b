import Glibc

/// The structure of one JSON text, without its values: where each value lies in the bytes
/// and what kind it is, in document order (a tape, as simdjson and yyjson call it).
///
/// A value is one 12-byte entry: a container's entry is followed by its members (key,
/// value, key, value…) or elements, and says where its last one ends, so a reader steps
/// over a whole container at once. Strings and numbers stay in the bytes: a string is
/// decoded, a number converted, only when asked for (`JSONTape+Values.swift`,
/// `TapeDecoder`). Built by the store's strict reader (`JSONTape+Building.swift`), so a
/// tape exists only for text the reader accepts.
struct JSONTape: Sendable {
    /// The kinds of value.
    enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null

        /// The name `JSONValue.typeName` gives a value of this kind.
        var typeName: String {
            switch self {
            case .object: "object"
            case .array: "array"
            case .string: "string"
            case .number: "number"
            case .true, .false: "boolean"
            case .null: "null"
            }
        }
    }

    /// One value.
    struct Entry: Sendable {
        /// The kind in the low 4 bits; above them a container's count of members or
        /// elements, or 1 for a string with escapes or a number with a fraction or an
        /// exponent.
        var word: UInt32
        /// Where the value starts: a container's bracket, a string's first byte after its
        /// quote, a number's first byte.
        var start: UInt32
        /// A container: the index of the entry after its last. A string or number: the
        /// length of its text.
        var extent: UInt32

        var kind: Kind { Kind(rawValue: UInt8(word & 0xF))! }
        /// A `word` whose count cannot grow: the most members or elements a container
        /// of a tape can have, 2^28 - 1, shifted.
        static let fullCount: UInt32 = 0xFFFF_FFF0
        /// A container's members or elements; a scalar's flag (escaped, not an integer).
        var count: Int { Int(word >> 4) }
    }

    /// The values, the document's outermost first.
    var entries: [Entry] = []

    /// The entry of the value after the one at `index` and everything inside it.
    func next(after index: Int) -> Int {
        let entry = entries[index]
        switch entry.kind {
        case .object, .array: return Int(entry.extent)
        default: return index + 1
        }
    }

    /// The range of the bytes holding the text of the string or number at `index`.
    func text(at index: Int) -> Range<Int> {
        let entry = entries[index]
        return Int(entry.start)..<Int(entry.start + entry.extent)
    }

    /// Where to look for a member: the key entry of the member at `position` among
    /// an object's members.
    struct MemberMark {
        var key: Int
        var position: Int
    }

    /// The entry of the value of `object`'s member whose key is `key`'s UTF-8, looked for
    /// from the member `from` marks on (the one after the last found: `Codable` asks for
    /// members in the order a type declares them, which is mostly the order a file has
    /// them), then from the first. Returns the value's entry and the mark of the member
    /// after it.
    func member(
        _ key: UnsafeBufferPointer<UInt8>, of object: Int, from: MemberMark?,
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> (value: Int, next: MemberMark)? {
        let count = entries[object].count
        guard count > 0 else { return nil }
        var mark =
            from.flatMap { $0.position < count ? $0 : nil }
            ?? MemberMark(key: object + 1, position: 0)
        for _ in 0..<count {
            let (keyEntry, value) = (mark.key, mark.key + 1)
            mark =
                mark.position + 1 == count
                ? MemberMark(key: object + 1, position: 0)
                : MemberMark(key: next(after: value), position: mark.position + 1)
            if keyMatches(key, at: keyEntry, in: bytes) { return (value, mark) }
        }
        return nil
    }

    /// The member `key` of `object` (see the other `member`).
    func member(
        _ key: String, of object: Int, from: MemberMark? = nil, in bytes: UnsafeBufferPointer<UInt8>
    ) -> (value: Int, next: MemberMark)? {
        var key = key
        return key.withUTF8 { member($0, of: object, from: from, in: bytes) }
    }

    /// Whether the key at `keyEntry` is `key`.
    func keyMatches(
        _ key: UnsafeBufferPointer<UInt8>, at keyEntry: Int, in bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let entry = entries[keyEntry]
        if entry.count == 0 {
            guard Int(entry.extent) == key.count else { return false }
            return key.count == 0
                || memcmp(bytes.baseAddress! + Int(entry.start), key.baseAddress!, key.count) == 0
        }
        let decoded = string(at: keyEntry, in: bytes)
        return UTF8Key.equal(decoded, String(decoding: key, as: UTF8.self))
    }
}
