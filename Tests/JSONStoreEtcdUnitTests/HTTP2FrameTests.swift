import Testing

@testable import JSONStoreEtcd

/// HTTP/2's frames (RFC 9113) and gRPC's messages on them: every frame this client
/// handles written and read back, and a server's malformed frames refused with the RFC's
/// error code.
@Suite("HTTP/2 frames and gRPC messages")
struct HTTP2FrameTests {
    func decodeAll(_ bytes: [UInt8], maxFrameSize: Int = 16_384) throws(HTTP2Error) -> [HTTP2Frame]
    {
        var at = 0
        var frames: [HTTP2Frame] = []
        while let frame = try HTTP2Frame.decode(bytes, at: &at, maxFrameSize: maxFrameSize) {
            frames.append(frame)
        }
        return frames
    }

    static let frames: [HTTP2Frame] = [
        .data(stream: 1, data: Array("hello".utf8), endStream: false),
        .data(stream: 3, data: [], endStream: true),
        .headers(stream: 1, fragment: [0x82, 0x86], endStream: false, endHeaders: true),
        .headers(stream: 5, fragment: [0x88], endStream: true, endHeaders: false),
        .continuation(stream: 5, fragment: [0x89], endHeaders: true),
        .priority(stream: 7),
        .resetStream(stream: 1, code: .cancel),
        .settings([.init(id: HTTP2Frame.Setting.enablePush, value: 0), .init(id: 0x99, value: 7)]),
        .settings([]),
        .settingsAcknowledged,
        .ping(opaque: 0x0102_0304_0506_0708, acknowledged: false),
        .ping(opaque: .max, acknowledged: true),
        .goAway(lastStream: 9, code: .enhanceYourCalm, debug: Array("calm".utf8)),
        .windowUpdate(stream: 0, increment: 65_535),
        .windowUpdate(stream: 3, increment: 0x7FFF_FFFF),
    ]

    @Test("every frame written reads back as itself, one after another")
    func roundTrip() throws {
        let bytes = Self.frames.flatMap(\.encoded)
        #expect(try decodeAll(bytes) == Self.frames)
        // The RFC's fixed shapes: a SETTINGS acknowledgement, a PING.
        #expect(HTTP2Frame.settingsAcknowledged.encoded == [0, 0, 0, 4, 1, 0, 0, 0, 0])
        #expect(
            HTTP2Frame.ping(opaque: 1, acknowledged: false).encoded
                == [0, 0, 8, 6, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 1])
        // A frame of a kind this client does not know is passed over, not refused.
        let unknown: [UInt8] = [0, 0, 2, 0xFA, 0, 0, 0, 0, 1, 9, 9]
        #expect(
            try decodeAll(unknown + HTTP2Frame.settingsAcknowledged.encoded) == [
                .unknown(type: 0xFA), .settingsAcknowledged,
            ])
    }

    @Test("a frame cut anywhere is waited for, nothing consumed")
    func partial() throws {
        let bytes = Self.frames.flatMap(\.encoded)
        for length in 0..<bytes.count {
            var at = 0
            var read = 0
            while (try HTTP2Frame.decode(Array(bytes.prefix(length)), at: &at, maxFrameSize: 16_384))
                != nil
            {
                read += 1
            }
            // What was read is the frames wholly there, and `at` is where the next begins.
            #expect(Self.frames.prefix(read).flatMap(\.encoded).count == at)
        }
    }

    @Test("padding and a priority are taken off DATA and HEADERS")
    func padded() throws {
        // DATA, padded (0x8) with 3 bytes: "ab" then the padding.
        let data: [UInt8] = [0, 0, 6, 0, 0x9, 0, 0, 0, 1, 3] + Array("ab".utf8) + [0, 0, 0]
        #expect(try decodeAll(data) == [.data(stream: 1, data: Array("ab".utf8), endStream: true)])
        // HEADERS, padded and with a priority (0x20): the five priority bytes, then 0x82.
        let headers: [UInt8] = [0, 0, 8, 1, 0x2C, 0, 0, 0, 3, 1, 0, 0, 0, 0, 16, 0x82, 0]
        #expect(
            try decodeAll(headers) == [
                .headers(stream: 3, fragment: [0x82], endStream: false, endHeaders: true)
            ])
    }

    func refusal(_ bytes: [UInt8], maxFrameSize: Int = 16_384) -> HTTP2Error? {
        do {
            _ = try decodeAll(bytes, maxFrameSize: maxFrameSize)
            return nil
        } catch {
            return error
        }
    }

    @Test("a server's malformed frames are refused with the RFC's code")
    func refused() {
        func code(_ bytes: [UInt8], maxFrameSize: Int = 16_384) -> HTTP2Error.Code? {
            refusal(bytes, maxFrameSize: maxFrameSize)?.code
        }
        // Longer than announced: refused from the header alone, no payload waited for.
        #expect(code([0, 0x40, 1, 0, 0, 0, 0, 0, 1]) == .frameSizeError)
        #expect(code([0, 0, 20, 0, 0, 0, 0, 0, 1], maxFrameSize: 16) == .frameSizeError)
        // On the wrong stream.
        #expect(code([0, 0, 0, 0, 0, 0, 0, 0, 0]) == .protocolError)  // DATA on 0
        #expect(code([0, 0, 0, 4, 0, 0, 0, 0, 1]) == .protocolError)  // SETTINGS on 1
        #expect(
            code([0, 0, 8, 6, 0, 0, 0, 0, 3] + [UInt8](repeating: 0, count: 8)) == .protocolError)
        // Of the wrong size.
        #expect(
            code([0, 0, 7, 6, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 7)) == .frameSizeError)
        #expect(
            code([0, 0, 5, 4, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 5)) == .frameSizeError)
        #expect(
            code([0, 0, 6, 4, 1, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 6)) == .frameSizeError)
        #expect(code([0, 0, 3, 3, 0, 0, 0, 0, 1, 0, 0, 0]) == .frameSizeError)
        #expect(code([0, 0, 4, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0]) == .frameSizeError)
        // A PRIORITY of the wrong size ends its stream only.
        #expect(refusal([0, 0, 4, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0])?.stream == 1)
        // Padding longer than the frame, a window grown by nothing, a push.
        #expect(code([0, 0, 2, 0, 0x8, 0, 0, 0, 1, 2, 0]) == .protocolError)
        #expect(code([0, 0, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]) == .protocolError)
        #expect(code([0, 0, 4, 5, 4, 0, 0, 0, 1, 0, 0, 0, 2]) == .protocolError)
        // Settings out of their bounds.
        #expect(code([0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2]) == .protocolError)
        #expect(code([0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 4, 0x80, 0, 0, 0]) == .flowControlError)
        #expect(code([0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0x10, 0]) == .protocolError)
        #expect(
            refusal([0, 0x40, 1, 0, 0, 0, 0, 0, 1])?.reason
                == "a frame of 16385 bytes, past the 16384 allowed")
    }

    @Test("random bytes are frames, a wait, or a refusal: never a trap")
    func random() {
        var g = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let bytes = (0..<Int.random(in: 0...64, using: &g)).map { _ in
                UInt8.random(in: 0...255, using: &g)
            }
            _ = refusal(bytes, maxFrameSize: 64)
        }
    }

    @Test("gRPC messages: framed, taken across DATA frames, and refused when too large")
    func grpcMessages() throws {
        let one = Array("first".utf8)
        let two = [UInt8](repeating: 7, count: 300)
        let stream = GRPCMessages.frame(one) + GRPCMessages.frame(two) + GRPCMessages.frame([])
        #expect(GRPCMessages.frame(one).prefix(5) == [0, 0, 0, 0, 5])
        // Split at every place: the same messages, in order.
        for cut in 0...stream.count {
            var messages = GRPCMessages(maxMessageSize: 1_000)
            let taken =
                try messages.take(Array(stream.prefix(cut)))
                + messages.take(Array(stream.dropFirst(cut)))
            #expect(taken == [one, two, []])
            #expect(!messages.isMidMessage)
        }
        var small = GRPCMessages(maxMessageSize: 100)
        #expect(
            throws: GRPCMessages.Refusal(reason: "a message of 300 bytes, past the 100 allowed")
        ) {
            try small.take(Array(GRPCMessages.frame(two).prefix(5)))
        }
        var compressed = GRPCMessages(maxMessageSize: 100)
        #expect(throws: GRPCMessages.Refusal.self) { try compressed.take([1, 0, 0, 0, 0]) }
        var cut = GRPCMessages(maxMessageSize: 100)
        #expect(try cut.take(Array(GRPCMessages.frame(one).dropLast())) == [])
        #expect(cut.isMidMessage)
    }

    @Test("gRPC's status: from trailers, its message percent-decoded")
    func grpcStatus() {
        let fields: [HPACK.Field] = [
            .init("grpc-status", "9"),
            .init("grpc-message", "etcdserver: requested lease not found %E2%9C%93 100%"),
        ]
        let status = GRPCStatus(fields)
        #expect(status?.code == .failedPrecondition)
        #expect(status?.message == "etcdserver: requested lease not found \u{2713} 100%")
        #expect(GRPCStatus([.init("grpc-status", "0")])?.code == .ok)
        #expect(GRPCStatus([.init("grpc-status", "16")])?.description == "UNAUTHENTICATED")
        #expect(GRPCStatus([.init("grpc-status", "77")])?.description == "status 77")
        #expect(GRPCStatus([.init("grpc-status", "x")]) == nil)
        #expect(GRPCStatus([.init("grpc-status", "99999999999999999999")]) == nil)
        #expect(GRPCStatus([.init(":status", "200")]) == nil)
    }
}
