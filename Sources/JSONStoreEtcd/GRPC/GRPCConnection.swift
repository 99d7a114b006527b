/// An HTTP/2 connection to etcd that carries gRPC calls (issue 29): HTTP/2 with prior
/// knowledge on a plain socket, or after ALPN `h2` on TLS.
///
/// Calls go one at a time, each on a stream of its own (`call`), each within its
/// deadline however busy the server keeps the connection; every frame that arrives
/// meanwhile is handled as the connection requires: the server's SETTINGS applied and
/// acknowledged, PINGs answered, room granted back for every DATA frame taken and waited
/// for before DATA is sent past it, every header block decoded (so the dynamic table
/// stays in step), an answer that comes before the request is all sent taken as the
/// answer. A call that ends in a gRPC status is an error that leaves the connection as it
/// was; anything else (a timeout, a reset, GOAWAY, a malformed frame or header block, a
/// second message) closes it, and later calls are refused: a new connection is made.
/// Not thread-safe: one owner uses it. (Its state is the frames' too, `+Frames`, so not
/// private to this file.)
package final class GRPCConnection {
    let socket: ByteStream
    let authority: String
    let scheme: String
    var input: [UInt8] = []
    var consumed = 0
    var decoder = HPACKDecoder()
    var nextStream: UInt32 = 1
    /// What the server announced, and the room it left for DATA on the connection and on
    /// the call's stream.
    var peerMaxFrameSize = HTTP2Frame.defaultMaxFrameSize
    var peerInitialWindow = 65_535
    var connectionWindow = 65_535
    var streamWindow = 0
    /// DATA taken since this side last granted room again on the connection.
    var takenSinceGrant = 0
    /// The server's GOAWAY, once it sent one: no stream after its last is processed.
    var goneAway: (lastStream: UInt32, code: HTTP2Error.Code)?
    /// Why the connection was given up, once it was.
    var failure: EtcdError?
    /// The whole payload of the last frame read (DATA's counts against the windows with
    /// its padding).
    var lastPayloadLength = 0

    /// What this side announces: frames up to 1 MiB, and by default 16 MiB of DATA a
    /// stream and 1 GiB on the connection before the server must wait for room.
    static let maxFrameSize = 1 << 20
    let streamWindowSize: Int
    let connectionWindowSize: Int
    /// The largest message an answer may hold (etcd's own default limit is 2 GiB; a range
    /// is asked for in pages far below this).
    static let maxMessageSize = 512 << 20

    /// Begins HTTP/2 on `socket`: the preface, this side's settings, and room for DATA on
    /// the connection. The server's settings are taken with the first call's frames.
    init(
        socket: ByteStream, tls: Bool, streamWindow: Int = 1 << 24,
        connectionWindow: Int = 1 << 30, until deadline: Deadline
    ) throws(EtcdError) {
        precondition((65_535...0x7FFF_FFFF).contains(streamWindow))
        precondition((65_535...0x7FFF_FFFF).contains(connectionWindow))
        self.socket = socket
        (streamWindowSize, connectionWindowSize) = (streamWindow, connectionWindow)
        (authority, scheme) = (socket.endpoint, tls ? "https" : "http")
        let settings = HTTP2Frame.settings([
            .init(id: HTTP2Frame.Setting.enablePush, value: 0),
            .init(id: HTTP2Frame.Setting.initialWindowSize, value: UInt32(streamWindow)),
            .init(id: HTTP2Frame.Setting.maxFrameSize, value: UInt32(Self.maxFrameSize)),
        ])
        var opening = HTTP2Frame.preface + settings.encoded
        if connectionWindow > 65_535 {
            opening +=
                HTTP2Frame.windowUpdate(stream: 0, increment: UInt32(connectionWindow - 65_535))
                .encoded
        }
        try socket.send(opening, until: deadline)
    }

    /// Closes the connection (GOAWAY is not owed: the server sees the socket close).
    package func close() { socket.close() }

    /// Calls `method` (`/etcdserverpb.KV/Range`) with `request`, a message's bytes, and
    /// returns the answer's one message; `metadata` goes with the request's headers (the
    /// token). A status other than OK is an `EtcdError` that says it.
    func call(
        _ method: String, _ request: [UInt8], metadata: [HPACK.Field] = [],
        until deadline: Deadline
    ) throws(EtcdError) -> [UInt8] {
        if let failure { throw failure }
        guard goneAway == nil, nextStream < 1 << 31 else {
            throw EtcdError(endpoint: authority, reason: "the connection takes no more calls")
        }
        let stream = nextStream
        nextStream += 2
        var headers: [HPACK.Field] = [
            .init(":method", "POST"), .init(":scheme", scheme), .init(":path", method),
            .init(":authority", authority), .init("content-type", "application/grpc"),
            .init("te", "trailers"),
        ]
        if let timeout = Self.timeout(deadline.remaining) {
            headers.append(.init("grpc-timeout", timeout))
        }
        var answer = Answer()
        do {
            try sendHeaders(
                HPACKEncoder.encode(headers + metadata), stream: stream, until: deadline)
            try sendData(
                GRPCMessages.frame(request), stream: stream, &answer, until: deadline)
            while answer.status == nil {
                try take(try nextFrame(until: deadline), stream: stream, &answer, deadline)
            }
            return try result(of: answer)
        } catch {
            // A status is the call's own end; anything else leaves the connection in a
            // state not to be trusted.
            if answer.status.map({ $0.code == .ok }) ?? true { fail(error) }
            throw error
        }
    }

    /// A deadline's seconds as `grpc-timeout` says them: at most eight digits, in the
    /// finest unit that holds them (`nil`: no deadline).
    static func timeout(_ seconds: Double) -> String? {
        guard seconds.isFinite else { return nil }
        for (unit, perSecond) in [("m", 1_000.0), ("S", 1), ("M", 1.0 / 60), ("H", 1.0 / 3_600)] {
            let count = (seconds * perSecond).rounded(.up)
            if count < 100_000_000 { return "\(max(1, Int(count)))\(unit)" }
        }
        return nil
    }

    /// Gives the connection up: closed, and every later call refused with `error`.
    func fail(_ error: EtcdError) {
        guard failure == nil else { return }
        failure = error
        socket.close()
    }

    /// A header block as HEADERS and, past the server's frame size, CONTINUATION frames.
    private func sendHeaders(_ block: [UInt8], stream: UInt32, until deadline: Deadline)
        throws(EtcdError)
    {
        var frames: [UInt8] = []
        var at = 0
        repeat {
            let end = min(block.count, at + peerMaxFrameSize)
            let fragment = Array(block[at..<end])
            frames +=
                (at == 0
                ? HTTP2Frame.headers(
                    stream: stream, fragment: fragment, endStream: false,
                    endHeaders: end == block.count)
                : HTTP2Frame.continuation(
                    stream: stream, fragment: fragment, endHeaders: end == block.count)).encoded
            at = end
        } while at < block.count
        try socket.send(frames, until: deadline)
    }

    /// The request's DATA, the stream ended with its last frame, each frame within the
    /// server's frame size and the room it left on the stream and the connection. While
    /// waiting for room, the call's own frames are taken as its answer: a server may answer
    /// before the request is all sent (RFC 9113, 8.1), and then the rest is not sent.
    private func sendData(
        _ body: [UInt8], stream: UInt32, _ answer: inout Answer, until deadline: Deadline
    ) throws(EtcdError) {
        streamWindow = peerInitialWindow
        var at = 0
        repeat {
            while min(streamWindow, connectionWindow) <= 0 {
                let frame = try nextFrame(until: deadline)
                if case .windowUpdate(stream, let increment) = frame {
                    try grow(&streamWindow, by: increment)
                } else {
                    try take(frame, stream: stream, &answer, deadline)
                }
                if answer.status != nil {
                    // Answered: the request's rest is not wanted.
                    try socket.send(
                        HTTP2Frame.resetStream(stream: stream, code: .noError).encoded,
                        until: deadline)
                    return
                }
            }
            let count = min(body.count - at, peerMaxFrameSize, streamWindow, connectionWindow)
            let end = at + count == body.count
            try socket.send(
                HTTP2Frame.data(stream: stream, data: Array(body[at..<at + count]), endStream: end)
                    .encoded, until: deadline)
            (at, streamWindow, connectionWindow) = (
                at + count, streamWindow - count, connectionWindow - count
            )
        } while at < body.count
    }

    /// A window grown by a WINDOW_UPDATE, or a SETTINGS change (`by` negative): past
    /// 2^31 - 1 is the server's error (RFC 9113, 6.9.1).
    func grow(_ window: inout Int, by increment: some BinaryInteger) throws(EtcdError) {
        window += Int(increment)
        guard window <= 0x7FFF_FFFF else { throw bad("a flow-control window past 2^31 - 1") }
    }
}
