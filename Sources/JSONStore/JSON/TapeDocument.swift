import Glibc

/// One JSON text being decoded from its tape: its bytes (a copy the decoding owns, so a
/// decoder a type keeps past its `init(from:)` stays safe), the tape, and where the last
/// member asked for was found.
final class TapeDocument {
    let bytes: UnsafeMutableBufferPointer<UInt8>
    let tape: JSONTape
    /// The object last looked in and the member after the one found there: the next
    /// lookup in it starts there.
    private var hint: (object: Int, next: JSONTape.MemberMark) = (-1, .init(key: 0, position: 0))

    /// The document of `bytes`, whose tape is `tape`.
    init(copying source: UnsafeBufferPointer<UInt8>, tape: JSONTape) {
        bytes = .allocate(capacity: max(source.count, 1))
        _ = bytes.initialize(fromContentsOf: source)
        self.tape = tape
    }

    deinit { bytes.deallocate() }

    /// The document of the item `id` whose bytes are `raw`, with an `"id"` member first
    /// when they have none, as `Item.object` has it.
    static func item(_ raw: UnsafeRawBufferPointer, id: String) -> TapeDocument? {
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        guard let tape = try? ItemBytes.reader.tape(bytes), tape.entries.first?.kind == .object
        else { return nil }
        if tape.member("id", of: 0, in: bytes) != nil {
            return TapeDocument(copying: bytes, tape: tape)
        }
        var spliced = Array(#"{"id":"#.utf8)
        JSONWriter.writeString(id, into: &spliced, strict: false)
        if tape.entries[0].count > 0 { spliced.append(JSONByte.comma) }
        spliced.append(contentsOf: bytes[(Int(tape.entries[0].start) + 1)...])
        return spliced.withUnsafeBufferPointer { spliced in
            guard let tape = try? ItemBytes.reader.tape(spliced) else { return nil }
            return TapeDocument(copying: spliced, tape: tape)
        }
    }

    /// Decodes the document as a `T`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try TapeDecoder(document: self, index: 0, path: .root).decodeValue(type)
    }

    var readable: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(bytes) }

    func kind(_ index: Int) -> JSONTape.Kind { tape.entries[index].kind }

    func string(at index: Int) -> String { tape.string(at: index, in: readable) }

    func value(at index: Int) -> JSONValue { tape.value(at: index, in: readable) }

    /// The entry of the value of `object`'s member `key`, if it has one.
    func member(_ key: String, of object: Int) -> Int? {
        let from = hint.object == object ? hint.next : nil
        guard let found = tape.member(key, of: object, from: from, in: readable) else {
            return nil
        }
        hint = (object, found.next)
        return found.value
    }

    /// The keys of the object at `object`, in the text's order.
    func keys(of object: Int) -> [String] {
        var keys: [String] = []
        var entry = object + 1
        for _ in 0..<tape.entries[object].count {
            keys.append(string(at: entry))
            entry = tape.next(after: entry + 1)
        }
        return keys
    }

    /// The number at `index` when it is an integer of at most 18 digits: read straight from
    /// its text. Anything else is left to the general road (`JSONNumber`).
    func smallInteger(at index: Int) -> Int64? {
        let entry = tape.entries[index]
        guard entry.kind == .number, entry.count == 0, entry.extent <= 19 else { return nil }
        var i = Int(entry.start)
        let end = i + Int(entry.extent)
        let negative = bytes[i] == JSONByte.minus
        if negative { i += 1 }
        guard end - i <= 18 else { return nil }
        var value: Int64 = 0
        while i < end {
            value = value &* 10 &+ Int64(bytes[i] &- 0x30)
            i += 1
        }
        // -0 is left to the general road, which keeps its sign as a `Double`.
        if negative && value == 0 { return nil }
        return negative ? -value : value
    }
}
