/// One HTTP/2 frame (RFC 9113, sections 4 and 6), as this client reads and writes them.
///
/// Frames are decoded from a server not trusted (`HTTP2Frame+Decoding`): a frame's
/// length is checked against the largest this side announced before its payload is
/// awaited, and each kind's payload against what the RFC requires of it.
enum HTTP2Frame: Equatable, Sendable {
    case data(stream: UInt32, data: [UInt8], endStream: Bool)
    /// A header block's first fragment (`endHeaders`: the whole of it).
    case headers(stream: UInt32, fragment: [UInt8], endStream: Bool, endHeaders: Bool)
    case priority(stream: UInt32)
    case resetStream(stream: UInt32, code: HTTP2Error.Code)
    case settings([Setting])
    case settingsAcknowledged
    case ping(opaque: UInt64, acknowledged: Bool)
    /// The server stops taking streams: those after `lastStream` were never processed.
    case goAway(lastStream: UInt32, code: HTTP2Error.Code, debug: [UInt8])
    /// Room for `increment` more bytes of DATA on a stream, or on the connection (0).
    case windowUpdate(stream: UInt32, increment: UInt32)
    case continuation(stream: UInt32, fragment: [UInt8], endHeaders: Bool)
    /// A frame of a kind this client does not know: ignored, as the RFC asks (5.5).
    case unknown(type: UInt8)

    /// A SETTINGS parameter (6.5.2).
    struct Setting: Equatable, Sendable {
        var id: UInt16
        var value: UInt32

        static let headerTableSize: UInt16 = 0x1
        static let enablePush: UInt16 = 0x2
        static let maxConcurrentStreams: UInt16 = 0x3
        static let initialWindowSize: UInt16 = 0x4
        static let maxFrameSize: UInt16 = 0x5
        static let maxHeaderListSize: UInt16 = 0x6
    }

    /// The frame types (6).
    enum Kind: UInt8 {
        case data = 0x0
        case headers = 0x1
        case priority = 0x2
        case resetStream = 0x3
        case settings = 0x4
        case pushPromise = 0x5
        case ping = 0x6
        case goAway = 0x7
        case windowUpdate = 0x8
        case continuation = 0x9

        /// The type's name in the RFC.
        var name: String {
            [
                "DATA", "HEADERS", "PRIORITY", "RST_STREAM", "SETTINGS", "PUSH_PROMISE", "PING",
                "GOAWAY", "WINDOW_UPDATE", "CONTINUATION",
            ][Int(rawValue)]
        }
    }

    /// The flags this client reads or writes.
    enum Flag {
        static let endStream: UInt8 = 0x1
        static let acknowledged: UInt8 = 0x1
        static let endHeaders: UInt8 = 0x4
        static let padded: UInt8 = 0x8
        static let priority: UInt8 = 0x20
    }

    /// The frame header's size, before the payload.
    static let headerSize = 9
    /// The smallest largest-frame size a side may announce, and the default (4.2).
    static let defaultMaxFrameSize = 16_384
    /// What a client sends first on a connection, before its SETTINGS (3.4).
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// The frame's bytes.
    var encoded: [UInt8] {
        switch self {
        case .data(let stream, let data, let end):
            Self.frame(.data, end ? Flag.endStream : 0, stream, data)
        case .headers(let stream, let fragment, let endStream, let endHeaders):
            Self.frame(
                .headers, (endStream ? Flag.endStream : 0) | (endHeaders ? Flag.endHeaders : 0),
                stream, fragment)
        case .priority(let stream):
            Self.frame(.priority, 0, stream, [0, 0, 0, 0, 15])
        case .resetStream(let stream, let code):
            Self.frame(.resetStream, 0, stream, Self.bigEndian(code.rawValue))
        case .settings(let settings):
            Self.frame(
                .settings, 0, 0,
                settings.flatMap {
                    [UInt8($0.id >> 8), UInt8($0.id & 0xFF)] + Self.bigEndian($0.value)
                })
        case .settingsAcknowledged:
            Self.frame(.settings, Flag.acknowledged, 0, [])
        case .ping(let opaque, let acknowledged):
            Self.frame(
                .ping, acknowledged ? Flag.acknowledged : 0, 0,
                Self.bigEndian(UInt32(opaque >> 32)) + Self.bigEndian(UInt32(opaque & 0xFFFF_FFFF)))
        case .goAway(let last, let code, let debug):
            Self.frame(.goAway, 0, 0, Self.bigEndian(last) + Self.bigEndian(code.rawValue) + debug)
        case .windowUpdate(let stream, let increment):
            Self.frame(.windowUpdate, 0, stream, Self.bigEndian(increment))
        case .continuation(let stream, let fragment, let endHeaders):
            Self.frame(.continuation, endHeaders ? Flag.endHeaders : 0, stream, fragment)
        case .unknown(let type):
            Self.frame(type, 0, 0, [])
        }
    }

    private static func frame(_ kind: Kind, _ flags: UInt8, _ stream: UInt32, _ payload: [UInt8])
        -> [UInt8]
    {
        frame(kind.rawValue, flags, stream, payload)
    }

    private static func frame(_ type: UInt8, _ flags: UInt8, _ stream: UInt32, _ payload: [UInt8])
        -> [UInt8]
    {
        precondition(payload.count < 1 << 24 && stream < 1 << 31)
        let length = UInt32(payload.count)
        return [UInt8(length >> 16), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            + bigEndian(stream) + payload
    }

    /// The four bytes at `at` of `bytes`, big-endian.
    static func bigEndian<C: Collection<UInt8>>(_ bytes: C, at: C.Index) -> UInt32
    where C.Index == Int {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
            | UInt32(bytes[at + 3])
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
            UInt8(value & 0xFF),
        ]
    }
}
