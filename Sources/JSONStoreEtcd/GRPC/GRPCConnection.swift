import JSONStore

/// An HTTP/2 connection to etcd that carries gRPC calls side by side (issue 29): HTTP/2
/// with prior knowledge on a plain socket, or after ALPN `h2` on TLS.
///
/// Every call is a stream of its own, and many go at once from any threads: a watch that
/// lives for days beside ranges and writes (`open`, `GRPCStream`; `call` for one request,
/// one answer). There is no reader thread: a thread that waits (for its answer, for room
/// to send) reads the connection while it waits, if no other thread does, so a watch's
/// event is taken by the thread that wants it, with no hop between threads (`+Waiting`).
/// The reading thread takes every frame as it comes and gives each stream its messages
/// and its end, waking their owners (`+Reader`); the connection's own business is done
/// there: the server's SETTINGS applied and acknowledged, PINGs answered, room granted
/// back for the DATA taken, every header block decoded so the dynamic table stays in step,
/// a PING sent after `keepAlive` seconds of silence and the connection given up when it
/// goes unanswered. What came while no thread waited is read before a call begins
/// (`isUsable`). A caller sends DATA only within the room the server left on its stream and
/// the connection (`+Streams`), and waits for its answer within its own deadline: a call
/// that runs out of time, ends in a gRPC status or is reset ends alone, the connection
/// goes on. A malformed frame or header block, a lost socket, an unanswered PING give the
/// connection up: every stream ends with that error, and later calls are refused (a new
/// connection is made). After the server's GOAWAY no new call starts, and the calls it
/// did not take end with an error that says so.
///
/// `close` ends it; so does the last reference going (`GRPCHold`).
package final class GRPCConnection: @unchecked Sendable {
    /// Sent to by any thread under `writing`; received from by the reading thread alone;
    /// shut down by `fail` from any thread, and closed when the connection goes (no stream
    /// or owner holds it then, so nothing uses it).
    let socket: ByteStream
    let authority: String
    let scheme: String
    /// What this side announces: frames up to 1 MiB, and by default 16 MiB of DATA a
    /// stream and 1 GiB on the connection before the server must wait for room.
    static let maxFrameSize = 1 << 20
    let streamWindowSize: Int
    let connectionWindowSize: Int
    /// The largest message an answer may hold (etcd's own default limit is 2 GiB; a range
    /// is asked for in pages far below this).
    static let maxMessageSize = 512 << 20
    /// The seconds of silence after which a PING asks whether the server is there, and
    /// the seconds its answer may take.
    let keepAlive: Double

    /// What callers and the reading thread share.
    let shared: Monitor<Shared>
    /// The reading thread's own state: used only by the thread holding `Shared.reading`,
    /// which is taken and given back under `shared`'s lock (so one thread's use happens
    /// before the next one's).
    var reader = Reader()
    /// Wakes the reading thread from its wait on the socket, for a waiter whose stream
    /// ended meanwhile (`end`).
    let wake = WakeSignal()
    /// Held while frames are written, so one's bytes never break into another's; holds the
    /// next stream's id, so streams begin in the order of their ids (RFC 9113, 5.1.1).
    let writing = Locked<UInt32>(1)

    /// The connection's state as callers and the reading thread share it.
    struct Shared {
        var streams: [UInt32: Stream] = [:]
        /// Whether a thread reads the connection: at most one at a time, and whoever waits
        /// takes it when it is free.
        var reading = false
        /// What the server announced, and the room it left for DATA on the connection.
        var peerMaxFrameSize = HTTP2Frame.defaultMaxFrameSize
        var peerInitialWindow = 65_535
        var sendWindow = 65_535
        /// The server's GOAWAY, once it sent one: no stream after its last is processed.
        var goneAway: (lastStream: UInt32, code: HTTP2Error.Code)?
        /// Why the connection was given up, once it was.
        var failure: EtcdError?
        /// Whether the server's first SETTINGS came: it speaks HTTP/2.
        var settled = false

        /// Runs `body` on stream `id` where it is kept (a copy would copy the message it is
        /// receiving with each frame); `nil` when there is no such stream.
        mutating func stream<Result, Failure>(
            _ id: UInt32, _ body: (inout Stream) throws(Failure) -> Result
        ) throws(Failure) -> Result? {
            guard streams[id] != nil else { return nil }
            return try body(&streams[id]!)
        }
    }

    /// One stream's state: what came for it, and the room left to send on it.
    struct Stream {
        var headers: [HPACK.Field]?
        var messages = GRPCMessages(maxMessageSize: GRPCConnection.maxMessageSize)
        /// Whole messages not taken yet, and their bytes.
        var inbox: [[UInt8]] = []
        var inboxBytes = 0
        /// Set once the server ended the stream.
        var status: GRPCStatus?
        /// Set when the stream ended otherwise: reset, not taken, a broken answer, a call
        /// of one answer given two, or the owner's interrupt.
        var error: EtcdError?
        var sendWindow: Int
        /// DATA taken on the stream and not granted back yet: granted once it is half the
        /// window, by the reading thread while the inbox is small, else by the owner as it
        /// takes messages.
        var owed = 0
        /// Whether the server ended the stream (its status, a reset, not taken): nothing
        /// more is owed to it.
        var remoteEnded = false
        /// A call of one message: a second is the stream's error.
        let single: Bool

        /// The room to grant back on the stream now, no longer owed: what was taken, once
        /// it is half the stream's `window` and while the inbox holds less than that; 0
        /// else.
        mutating func grant(window: Int) -> Int {
            guard owed >= window / 2, inboxBytes < window / 2 else { return 0 }
            defer { owed = 0 }
            return owed
        }
    }

    /// Begins HTTP/2 on `socket`: the preface, this side's settings, and room for DATA on
    /// the connection; returns once the server's settings came.
    init(
        socket: ByteStream, tls: Bool, streamWindow: Int = 1 << 24,
        connectionWindow: Int = 1 << 30, keepAlive: Double = 10, until deadline: Deadline
    ) throws(EtcdError) {
        precondition((65_535...0x7FFF_FFFF).contains(streamWindow))
        precondition((65_535...0x7FFF_FFFF).contains(connectionWindow))
        self.socket = socket
        (streamWindowSize, connectionWindowSize) = (streamWindow, connectionWindow)
        (authority, scheme) = (socket.endpoint, tls ? "https" : "http")
        self.keepAlive = keepAlive
        shared = Monitor(Shared())
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
        // The server's preface is its SETTINGS (RFC 9113, 3.4): until it comes, the server
        // is not known to speak HTTP/2.
        let settled = waitReading(until: deadline) { shared -> Result<Void, EtcdError>? in
            // Settled first: a failure after it is the calls' to say.
            if shared.settled { return .success(()) }
            return shared.failure.map { .failure($0) }
        }
        switch settled {
        case .success?: return
        case .failure(let error)?:
            close()
            throw error
        case nil:
            let error = EtcdError(
                endpoint: authority, reason: "no HTTP/2 settings within \(deadline.text)",
                kind: .timedOut)
            fail(error)
            throw error
        }
    }

    deinit { socket.close() }

    /// Ends the connection: every stream still open ends with an error that says so, and
    /// the socket is shut down, waking the reading thread (GOAWAY is not owed: the server
    /// sees it close).
    package func close() {
        fail(EtcdError(endpoint: authority, reason: "the connection was closed"))
    }

    /// Why the connection was given up, once it was.
    var failure: EtcdError? { shared.withLock { $0.failure } }

    /// Whether a call may begin on it: not given up, and no GOAWAY, once what came while
    /// no thread read is taken (a GOAWAY, the server gone).
    var isUsable: Bool {
        readPending()
        return shared.withLock { $0.failure == nil && $0.goneAway == nil }
    }

    /// Gives the connection up: every stream still open ends with `error` (what it was
    /// sent stays for it to take), later calls are refused with it, and the reading thread
    /// wakes.
    func fail(_ error: EtcdError) {
        let first = shared.change { shared in
            guard shared.failure == nil else { return false }
            shared.failure = error
            return true
        }
        if first { socket.shutdown() }
    }

    /// Sends `frames` whole, none of another thread's between their bytes.
    func send(_ frames: [UInt8], until deadline: Deadline) throws(EtcdError) {
        try writing.withLock { _ -> Result<Void, EtcdError> in
            if let failure { return .failure(failure) }
            return Result { () throws(EtcdError) in try socket.send(frames, until: deadline) }
        }.get()
    }

    /// Calls `method` (`/etcdserverpb.KV/Range`) with `request`, a message's bytes, and
    /// returns the answer's one message; `metadata` goes with the request's headers (the
    /// token). A status other than OK is an `EtcdError` that says it.
    func call(
        _ method: String, _ request: [UInt8], metadata: [HPACK.Field] = [],
        until deadline: Deadline
    ) throws(EtcdError) -> [UInt8] {
        let stream = try open(method, metadata: metadata, single: true, until: deadline)
        defer { stream.cancel() }
        try stream.send(request, endStream: true, until: deadline)
        var answer: [UInt8]?
        while let message = try stream.receive(until: deadline) { answer = message }
        guard let answer else { throw bad("no message in the answer") }
        return answer
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

    func bad(_ reason: String) -> EtcdError {
        EtcdError(
            endpoint: authority, reason: "a broken HTTP/2 answer: \(reason)", kind: .badResponse)
    }

    /// A connection to etcd at `host`, `port`, made within `timeout` seconds: in the clear
    /// (HTTP/2 with prior knowledge), or over TLS with `tls`, where the server must choose
    /// `h2` among the protocols offered (ALPN).
    package static func connect(
        host: String, port: UInt16, tls: TLSContext? = nil, timeout: Double = 5,
        keepAlive: Double = 10
    ) throws(EtcdError) -> GRPCConnection {
        let deadline = Deadline(seconds: timeout)
        let socket: ByteStream
        if let tls {
            let session = try TLSSocket(
                host: host, port: port, context: tls, protocols: ["h2"], until: deadline)
            guard session.negotiatedProtocol == "h2" else {
                session.close()
                throw notHTTP2(session)
            }
            socket = session
        } else {
            socket = try TCPSocket(host: host, port: port, until: deadline)
        }
        // Given up, the socket is closed as the connection goes.
        return try GRPCConnection(
            socket: socket, tls: tls != nil, keepAlive: keepAlive, until: deadline)
    }

    /// A TLS session on which the server did not choose `h2`.
    static func notHTTP2(_ session: TLSSocket) -> EtcdError {
        EtcdError(
            endpoint: session.endpoint,
            reason: "the server does not speak HTTP/2 over TLS (ALPN chose "
                + "\(session.negotiatedProtocol.map { "\"\($0)\"" } ?? "nothing"))",
            kind: .notHTTP2)
    }
}
