/// Protocol Buffers' wire format, read: the messages etcd's gRPC API answers with, from a
/// server this client does not trust.
///
/// Every length is checked against what is left of its message before anything is read
/// or made of it, a varint has at most ten bytes and 64 bits, a message nests at most
/// `deepest` levels, and a field's wire type must be the one its declaration gives: what
/// does not hold is a `ProtobufError` saying where, never a trap. Fields this client does
/// not know are skipped (a newer etcd adds some), as protobuf's own readers do.
struct ProtobufReader {
    /// A field's value as its wire type lays it out; a length-delimited one as where its
    /// bytes are in the message's buffer.
    enum Value {
        case varint(UInt64)
        case fixed64(UInt64)
        case lengthDelimited(Range<Int>)
        case fixed32(UInt32)
    }

    /// The deepest a message may nest in the one read first (a transaction's answers nest
    /// one in another).
    static let deepest = 32

    /// The whole answer this message is part of, shared, not copied.
    let buffer: [UInt8]
    private var at: Int
    private let end: Int
    /// Where the message begins in `buffer`, and where its last field read began.
    let start: Int
    private var fieldStart: Int
    /// How deep this message is in the one read first (0).
    let depth: Int

    /// A reader of the message that is the whole of `bytes`.
    init(_ bytes: [UInt8]) {
        (buffer, at, end, depth) = (bytes, 0, bytes.count, 0)
        (start, fieldStart) = (0, 0)
    }

    private init(buffer: [UInt8], range: Range<Int>, depth: Int) {
        (self.buffer, at, end, self.depth) = (buffer, range.lowerBound, range.upperBound, depth)
        (start, fieldStart) = (range.lowerBound, range.lowerBound)
    }

    /// The next field, its number and value; `nil` at the message's end.
    mutating func next() throws(ProtobufError) -> (field: Int, value: Value)? {
        guard at < end else { return nil }
        let start = at
        fieldStart = at
        let key = try varint()
        let field = key >> 3
        guard field > 0, field < 1 << 29 else {
            throw ProtobufError("a field numbered \(field)", at: start)
        }
        let value: Value
        switch key & 7 {
        case 0: value = .varint(try varint())
        case 1: value = .fixed64(try fixed(8))
        case 2:
            let length = try varint()
            guard length <= UInt64(end - at) else {
                throw ProtobufError("a length of \(length) past the message's end", at: start)
            }
            value = .lengthDelimited(at..<at + Int(length))
            at += Int(length)
        case 5: value = .fixed32(UInt32(try fixed(4)))
        case let type:
            // 3 and 4 are proto2's groups, which etcd never sends; 6 and 7 are no type.
            throw ProtobufError("field \(field) of wire type \(type)", at: start)
        }
        return (Int(field), value)
    }

    private mutating func varint() throws(ProtobufError) -> UInt64 {
        let start = at
        var value: UInt64 = 0
        for shift in stride(from: UInt64(0), to: 70, by: 7) {
            guard at < end else { throw ProtobufError("a varint cut short", at: start) }
            let byte = buffer[at]
            at += 1
            // The tenth byte holds the 64th bit alone.
            guard shift < 63 || byte <= 1 else {
                throw ProtobufError("a varint longer than 64 bits", at: start)
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
        }
        throw ProtobufError("a varint longer than 64 bits", at: start)
    }

    private mutating func fixed(_ count: Int) throws(ProtobufError) -> UInt64 {
        guard end - at >= count else { throw ProtobufError("a fixed value cut short", at: at) }
        var value: UInt64 = 0
        for k in 0..<count { value |= UInt64(buffer[at + k]) << (8 * k) }
        at += count
        return value
    }

    /// Calls `body` with each field of the message, in order.
    func forEachField(_ body: (Int, Value) throws(ProtobufError) -> Void) throws(ProtobufError) {
        var reader = self
        while let (field, value) = try reader.next() { try body(field, value) }
    }

    // MARK: A field's value as its declaration types it

    /// A message field's value, decoded.
    func decode<M: ProtobufDecodable>(_ value: Value, field: Int) throws(ProtobufError) -> M {
        try M(from: message(value, field: field))
    }

    /// An `int64` or enum field's value.
    func integer(_ value: Value, field: Int) throws(ProtobufError) -> Int64 {
        guard case .varint(let raw) = value else { throw mismatch(field, "an integer") }
        return Int64(bitPattern: raw)
    }

    /// A `uint64` field's value.
    func unsigned(_ value: Value, field: Int) throws(ProtobufError) -> UInt64 {
        guard case .varint(let raw) = value else { throw mismatch(field, "an integer") }
        return raw
    }

    func bool(_ value: Value, field: Int) throws(ProtobufError) -> Bool {
        guard case .varint(let raw) = value else { throw mismatch(field, "a boolean") }
        return raw != 0
    }

    /// A `bytes` field's value, copied out.
    func bytes(_ value: Value, field: Int) throws(ProtobufError) -> [UInt8] {
        guard case .lengthDelimited(let range) = value else { throw mismatch(field, "bytes") }
        return Array(buffer[range])
    }

    /// A `string` field's value, which must be UTF-8.
    func string(_ value: Value, field: Int) throws(ProtobufError) -> String {
        guard case .lengthDelimited(let range) = value else { throw mismatch(field, "a string") }
        guard let text = String(validating: buffer[range], as: UTF8.self) else {
            throw ProtobufError(
                "field \(field) is a string that is not UTF-8", at: range.lowerBound)
        }
        return text
    }

    /// A message field's reader, one level deeper.
    func message(_ value: Value, field: Int) throws(ProtobufError) -> ProtobufReader {
        guard case .lengthDelimited(let range) = value else {
            throw mismatch(field, "a message")
        }
        guard depth < Self.deepest else {
            throw ProtobufError(
                "messages nested more than \(Self.deepest) deep", at: range.lowerBound)
        }
        return ProtobufReader(buffer: buffer, range: range, depth: depth + 1)
    }

    private func mismatch(_ field: Int, _ expected: String) -> ProtobufError {
        ProtobufError("field \(field) is not \(expected)", at: fieldStart)
    }
}

/// What is wrong with a message a server sent, and where in it.
struct ProtobufError: Error, Equatable, CustomStringConvertible {
    let reason: String
    /// The offset in the whole answer.
    let offset: Int

    init(_ reason: String, at offset: Int) {
        (self.reason, self.offset) = (reason, offset)
    }

    var description: String { "\(reason) (byte \(offset))" }
}
