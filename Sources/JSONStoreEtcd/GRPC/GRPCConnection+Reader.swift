import JSONStore

extension GRPCConnection {
    /// What the reading thread alone holds (the one holding `Shared.reading`): the bytes
    /// read past the last whole frame, the header table, the DATA taken since room was
    /// last granted on the connection, and when the server was last heard from.
    struct Reader {
        var input: [UInt8] = []
        var consumed = 0
        var decoder = HPACKDecoder()
        var takenSinceGrant = 0
        /// The whole payload of the last frame read (DATA's counts against the windows with
        /// its padding).
        var lastPayloadLength = 0
        /// Whether the server's first frame was read (its SETTINGS, or it is no HTTP/2).
        var started = false
        /// When bytes last came, and when a PING asked for a sign of life since, if one did.
        var heard = ContinuousClock.now
        var pinged: ContinuousClock.Instant?
    }

    /// Reads the next frame and takes it, waiting until `deadline` for it; `false` when the
    /// deadline passed first or `wake` was signalled. Only the thread holding
    /// `Shared.reading` calls it.
    func readFrame(until deadline: Deadline) throws(EtcdError) -> Bool {
        guard reader.started else {
            // The server's preface is a SETTINGS frame (RFC 9113, 3.4): what is not, a
            // frame of another kind or bytes that are no frame, is a server that does not
            // speak HTTP/2.
            let first: HTTP2Frame?
            do {
                first = try nextFrame(&reader, until: deadline)
            } catch  where error.kind == .badResponse {
                let http1 = reader.input.starts(with: "HTTP/".utf8)
                throw notHTTP2(http1 ? "it answered in HTTP/1" : error.reason)
            }
            guard let first else { return false }
            guard case .settings = first else {
                throw notHTTP2("its first frame is not SETTINGS")
            }
            reader.started = true
            try take(first, &reader)
            return true
        }
        guard let frame = try nextFrame(&reader, until: deadline) else { return false }
        try take(frame, &reader)
        return true
    }

    /// The next whole frame, waiting until `deadline`; `nil` when it passed first or `wake`
    /// was signalled. Silence for `keepAlive` seconds is asked about with a PING; when
    /// `keepAlive` more pass with nothing, the connection is given up.
    private func nextFrame(_ reader: inout Reader, until deadline: Deadline) throws(EtcdError)
        -> HTTP2Frame?
    {
        var received = false
        while true {
            let start = reader.consumed
            do {
                if let frame = try HTTP2Frame.decode(
                    reader.input, at: &reader.consumed, maxFrameSize: Self.maxFrameSize)
                {
                    reader.lastPayloadLength = reader.consumed - start - HTTP2Frame.headerSize
                    return frame
                }
            } catch {
                try? send(
                    HTTP2Frame.goAway(lastStream: 0, code: error.code, debug: []).encoded,
                    until: Deadline(seconds: 1))
                throw bad("\(error)")
            }
            if reader.consumed > 0 {
                reader.input.removeFirst(reader.consumed)
                reader.consumed = 0
            }
            if let failure { throw failure }
            // Bytes that keep coming with no whole frame do not hold a waiter past its
            // deadline (what came stays for the next one to read).
            if received && deadline.hasPassed { return nil }
            let silence = (reader.pinged ?? reader.heard) + .seconds(keepAlive)
            let count: Int?
            do {
                count = try socket.receive(
                    into: &reader.input,
                    until: Deadline(seconds: min(deadline.remaining, Self.seconds(until: silence))),
                    wake: wake)
            } catch  where error.kind == .timedOut {
                if deadline.hasPassed { return nil }
                guard ContinuousClock.now >= silence else { continue }
                guard reader.pinged == nil else {
                    throw EtcdError(
                        endpoint: authority,
                        reason: "no answer to a PING within \(Deadline(seconds: keepAlive).text)",
                        kind: .timedOut)
                }
                reader.pinged = .now
                try send(HTTP2Frame.ping(opaque: 0, acknowledged: false).encoded, until: .never)
                continue
            }
            guard let count else { return nil }
            guard count > 0 else {
                throw failure
                    ?? EtcdError(endpoint: authority, reason: "etcd closed the connection")
            }
            (reader.heard, reader.pinged, received) = (.now, nil, true)
        }
    }

    /// The seconds from now to `instant`, 0 once it passed.
    private static func seconds(until instant: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = ContinuousClock.now.duration(to: instant).components
        return max(0, Double(seconds) + Double(attoseconds) * 1e-18)
    }

    /// Takes a frame: a stream's to its stream, the connection's as it requires.
    private func take(_ frame: HTTP2Frame, _ reader: inout Reader) throws(EtcdError) {
        switch frame {
        case .headers(let id, let fragment, let endStream, let endHeaders):
            // Decoded whoever it is for, so the table stays in step.
            let fields = try headerBlock(fragment, complete: endHeaders, stream: id, &reader)
            shared.change { shared in
                shared.stream(id) { stream in self.answered(&stream, fields, end: endStream) }
            }
        case .data(let id, let data, let endStream):
            try took(data: data, endStream: endStream, on: id, &reader)
        case .resetStream(let id, let code):
            shared.change { shared in
                // After its status, a reset only says the server wants no more of the request.
                guard shared.streams[id] != nil, shared.streams[id]!.status == nil else { return }
                shared.streams[id]!.remoteEnded = true
                if shared.streams[id]!.error == nil {
                    // REFUSED_STREAM: the server did nothing with it (RFC 9113, 8.7).
                    shared.streams[id]!.error = EtcdError(
                        endpoint: authority, reason: "etcd reset the call (\(code))",
                        kind: code == .refusedStream ? .notTaken : .other)
                }
            }
        case .settings(let settings):
            try settle(settings)
            try send(HTTP2Frame.settingsAcknowledged.encoded, until: .never)
        case .ping(let opaque, false):
            try send(HTTP2Frame.ping(opaque: opaque, acknowledged: true).encoded, until: .never)
        case .goAway(let last, let code, _):
            shared.change { shared in
                shared.goneAway = (last, code)
                for (id, stream) in shared.streams where id > last && stream.error == nil {
                    shared.streams[id]!.remoteEnded = true
                    shared.streams[id]!.error = notTaken(code)
                }
            }
        case .windowUpdate(let id, let increment):
            try shared.change { shared throws(EtcdError) in
                if id == 0 {
                    try grow(&shared.sendWindow, by: increment)
                } else if shared.streams[id] != nil {
                    try grow(&shared.streams[id]!.sendWindow, by: increment)
                }
            }
        case .continuation:
            throw bad("a CONTINUATION frame with no header block before it")
        default:
            break
        }
    }

    /// A header block `fields` for `stream`: its response headers (`:status` 200, else
    /// the stream's error), or with `end` its trailers and status.
    private func answered(_ stream: inout Stream, _ fields: [HPACK.Field], end: Bool) {
        guard !stream.remoteEnded else { return }
        if stream.headers == nil {
            stream.headers = fields
            let status = fields.first { $0.name == Array(":status".utf8) }?.value
            if status != Array("200".utf8) {
                stream.error = bad(
                    "HTTP status \(String(decoding: status ?? [], as: UTF8.self)) for a gRPC call")
            }
        }
        if end {
            stream.remoteEnded = true
            stream.status =
                stream.messages.isMidMessage
                ? GRPCStatus(code: .internal, message: "the answer ended mid-message")
                : GRPCStatus(fields)
                    ?? GRPCStatus(code: .unknown, message: "no grpc-status in the trailers")
        }
    }

    /// DATA of stream `id` taken: counted against the connection's room (padding
    /// included) and granted back once half is used; its messages to the stream's inbox,
    /// and the stream's room granted back at once while the inbox is small (else as its
    /// owner takes them).
    private func took(
        data: [UInt8], endStream: Bool, on id: UInt32, _ reader: inout Reader
    ) throws(EtcdError) {
        let count = reader.lastPayloadLength
        var grants: [UInt8] = []
        reader.takenSinceGrant += count
        if reader.takenSinceGrant >= connectionWindowSize / 2 {
            grants +=
                HTTP2Frame.windowUpdate(stream: 0, increment: UInt32(reader.takenSinceGrant))
                .encoded
            reader.takenSinceGrant = 0
        }
        // Its owner is woken only when there is something for it: a message, or the end.
        let (streamGrant, news) = try shared.withLock { shared throws(EtcdError) in
            try shared.stream(id) { stream throws(EtcdError) in
                try took(data, endStream: endStream, count: count, into: &stream)
            } ?? (0, false)
        }
        if news { shared.broadcast() }
        if streamGrant > 0 {
            grants += HTTP2Frame.windowUpdate(stream: id, increment: UInt32(streamGrant)).encoded
        }
        if !grants.isEmpty { try send(grants, until: .never) }
    }

    /// A DATA frame's bytes (`count` of payload) into `stream`: the messages they complete
    /// to its inbox. Returns the room to grant back on it now (0 for none), and whether
    /// its owner has news (a message, an error, its end).
    private func took(
        _ data: [UInt8], endStream: Bool, count: Int, into stream: inout Stream
    ) throws(EtcdError) -> (grant: Int, news: Bool) {
        guard !stream.remoteEnded, stream.error == nil else { return (0, false) }
        guard stream.headers != nil else { throw bad("DATA before the answer's headers") }
        stream.owed += count
        let messages: [[UInt8]]
        do throws(GRPCMessages.Refusal) {
            messages = try stream.messages.take(data)
        } catch {
            stream.error = bad(error.reason)
            return (0, true)
        }
        for message in messages {
            stream.inbox.append(message)
            stream.inboxBytes += message.count
        }
        if stream.single && stream.inbox.count > 1 {
            stream.error = bad("more than one message in an answer of one")
            return (0, true)
        }
        if endStream {
            stream.remoteEnded = true
            stream.status = GRPCStatus(
                code: .internal, message: "the answer ended with no trailers")
            return (0, true)
        }
        return (stream.grant(window: streamWindowSize), !messages.isEmpty)
    }

    /// The server's settings applied: its frame size, and its initial window, which moves
    /// every open stream's room by the change (RFC 9113, 6.9.2).
    private func settle(_ settings: [HTTP2Frame.Setting]) throws(EtcdError) {
        try shared.change { shared throws(EtcdError) in
            shared.settled = true
            for setting in settings {
                switch setting.id {
                case HTTP2Frame.Setting.maxFrameSize:
                    shared.peerMaxFrameSize = Int(setting.value)
                case HTTP2Frame.Setting.initialWindowSize:
                    let change = Int(setting.value) - shared.peerInitialWindow
                    for id in shared.streams.keys {
                        try grow(&shared.streams[id]!.sendWindow, by: change)
                    }
                    shared.peerInitialWindow = Int(setting.value)
                default: break
                }
            }
        }
    }

    /// A window grown by a WINDOW_UPDATE, or a SETTINGS change (`by` negative): past
    /// 2^31 - 1 is the server's error (RFC 9113, 6.9.1).
    func grow(_ window: inout Int, by increment: some BinaryInteger) throws(EtcdError) {
        window += Int(increment)
        guard window <= 0x7FFF_FFFF else { throw bad("a flow-control window past 2^31 - 1") }
    }

    /// A header block begun by `fragment`, its CONTINUATION frames read (nothing else may
    /// come between: RFC 9113, 6.10), and decoded.
    private func headerBlock(
        _ fragment: [UInt8], complete: Bool, stream: UInt32, _ reader: inout Reader
    ) throws(EtcdError) -> [HPACK.Field] {
        var block = fragment
        var complete = complete
        while !complete {
            // Read to the block's end whatever the deadline or a wake says, so the header
            // table stays in step (the keep-alive still bounds the wait).
            guard let next = try nextFrame(&reader, until: .never) else { continue }
            guard case .continuation(stream, let more, let end) = next
            else { throw bad("a header block broken off by another frame") }
            guard block.count + more.count <= reader.decoder.maxListSize else {
                throw bad("a header block too large")
            }
            block.append(contentsOf: more)
            complete = end
        }
        do {
            return try reader.decoder.decode(block)
        } catch {
            throw bad("a header block that does not decode: \(error.reason)")
        }
    }

    /// The server does not speak HTTP/2, and `why`.
    private func notHTTP2(_ why: String) -> EtcdError {
        EtcdError(
            endpoint: authority, reason: "the server does not speak HTTP/2 (\(why))",
            kind: .notHTTP2)
    }
}
