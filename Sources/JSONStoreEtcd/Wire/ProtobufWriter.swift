/// Protocol Buffers' wire format, written: the messages etcd's gRPC API takes.
///
/// As proto3 has it, a scalar field at its default (zero, false, empty) is left out, and
/// a reader takes it for the default; a message field is always written, empty or not,
/// since its presence can be what it says (a `oneof`'s choice: an empty
/// `WatchProgressRequest` asks for progress).
struct ProtobufWriter {
    /// How a field's value is laid out, the low three bits of its tag.
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    private(set) var bytes: [UInt8] = []

    init() {}

    /// Writes the message `body` writes, on its own: its bytes.
    static func message(_ body: (inout ProtobufWriter) -> Void) -> [UInt8] {
        var writer = ProtobufWriter()
        body(&writer)
        return writer.bytes
    }

    /// `value` seven bits a byte, lowest first, each byte but the last with its high bit set.
    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private mutating func tag(_ field: Int, _ type: WireType) {
        precondition(field > 0 && field < 1 << 29, "a field number is 1 to 2^29 - 1")
        varint(UInt64(field) << 3 | UInt64(type.rawValue))
    }

    /// An `int64` or enum field: a negative value takes ten bytes, as every protobuf
    /// writer writes it.
    mutating func integer(_ field: Int, _ value: Int64) {
        guard value != 0 else { return }
        tag(field, .varint)
        varint(UInt64(bitPattern: value))
    }

    /// A `uint64` field.
    mutating func unsigned(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, .varint)
        varint(value)
    }

    mutating func bool(_ field: Int, _ value: Bool) {
        guard value else { return }
        tag(field, .varint)
        varint(1)
    }

    /// A `bytes` field.
    mutating func bytes(_ field: Int, _ value: [UInt8]) {
        guard !value.isEmpty else { return }
        lengthDelimited(field, value)
    }

    mutating func string(_ field: Int, _ value: String) {
        bytes(field, Array(value.utf8))
    }

    /// A `oneof`'s `int64` member, written even at zero: its presence says which member
    /// is set.
    mutating func chosen(_ field: Int, _ value: Int64) {
        tag(field, .varint)
        varint(UInt64(bitPattern: value))
    }

    /// A `oneof`'s `bytes` member, written even when empty.
    mutating func chosen(_ field: Int, _ value: [UInt8]) {
        lengthDelimited(field, value)
    }

    /// A message field, written even when it is empty.
    mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
        lengthDelimited(field, Self.message(body))
    }

    private mutating func lengthDelimited(_ field: Int, _ value: [UInt8]) {
        tag(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes += value
    }
}
