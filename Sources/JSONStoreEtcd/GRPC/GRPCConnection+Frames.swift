extension GRPCConnection {
    /// What one call's stream brings back: its headers, its message, its trailers.
    struct Answer {
        var headers: [HPACK.Field]?
        var messages = GRPCMessages(maxMessageSize: GRPCConnection.maxMessageSize)
        var message: [UInt8]?
        var status: GRPCStatus?
        /// DATA taken on the stream since this side last granted room on it again.
        var takenSinceGrant = 0
    }

    /// Takes a frame that came while the call on `stream` waits: the call's own into
    /// `answer`, the connection's as it requires.
    func take(_ frame: HTTP2Frame, stream: UInt32, _ answer: inout Answer, _ deadline: Deadline)
        throws(EtcdError)
    {
        switch frame {
        case .headers(stream, let fragment, let endStream, let endHeaders):
            let fields = try headerBlock(fragment, complete: endHeaders, stream: stream, deadline)
            if answer.headers == nil {
                try check(fields)
                answer.headers = fields
            }
            if endStream {
                answer.status =
                    GRPCStatus(fields)
                    ?? GRPCStatus(code: .unknown, message: "no grpc-status in the trailers")
            }
        case .data(let on, let data, let endStream):
            // Every DATA frame counts against the connection's room, padding included.
            try took(lastPayloadLength, stream: on == stream ? stream : nil, &answer, deadline)
            guard on == stream else { return }
            guard answer.headers != nil else { throw bad("DATA before the answer's headers") }
            let messages: [[UInt8]]
            do {
                messages = try answer.messages.take(data)
            } catch {
                throw bad(error.reason)
            }
            guard messages.count + (answer.message == nil ? 0 : 1) <= 1 else {
                throw bad("more than one message in an answer of one")
            }
            if let message = messages.first { answer.message = message }
            if endStream {
                answer.status = GRPCStatus(
                    code: .internal, message: "the answer ended with no trailers")
            }
        case .resetStream(stream, let code):
            throw EtcdError(endpoint: authority, reason: "etcd reset the call (\(code))")
        default:
            try handle(frame, stream: stream, deadline)
        }
    }

    /// The call's message, or its status as an error.
    func result(of answer: Answer) throws(EtcdError) -> [UInt8] {
        if let status = answer.status, status.code != .ok {
            let kind: EtcdError.Kind =
                switch status.code {
                case .unauthenticated: .authenticationFailed
                case .deadlineExceeded: .timedOut
                default: .other
                }
            throw EtcdError(endpoint: authority, reason: "etcd answered \(status)", kind: kind)
        }
        guard let message = answer.message, !answer.messages.isMidMessage else {
            throw bad("no whole message in the answer")
        }
        return message
    }

    /// The response's headers say it is gRPC's answer: `:status` 200.
    private func check(_ fields: [HPACK.Field]) throws(EtcdError) {
        let status = fields.first { $0.name == Array(":status".utf8) }?.value
        guard status == Array("200".utf8) else {
            throw bad(
                "HTTP status \(String(decoding: status ?? [], as: UTF8.self)) for a gRPC call")
        }
    }

    /// DATA of `count` bytes (its whole payload) taken, on the call's `stream` or another:
    /// room granted back on the connection, and on the call's stream, once half is used.
    private func took(
        _ count: Int, stream: UInt32?, _ answer: inout Answer, _ deadline: Deadline
    ) throws(EtcdError) {
        var grants: [UInt8] = []
        if let stream {
            answer.takenSinceGrant += count
            if answer.takenSinceGrant >= streamWindowSize / 2 {
                grants +=
                    HTTP2Frame.windowUpdate(
                        stream: stream, increment: UInt32(answer.takenSinceGrant)
                    ).encoded
                answer.takenSinceGrant = 0
            }
        }
        takenSinceGrant += count
        if takenSinceGrant >= connectionWindowSize / 2 {
            grants += HTTP2Frame.windowUpdate(stream: 0, increment: UInt32(takenSinceGrant)).encoded
            takenSinceGrant = 0
        }
        if !grants.isEmpty { try socket.send(grants, until: deadline) }
    }

    /// A header block begun by `fragment`, its CONTINUATION frames read (nothing else may
    /// come between: RFC 9113, 6.10), and decoded.
    private func headerBlock(
        _ fragment: [UInt8], complete: Bool, stream: UInt32, _ deadline: Deadline
    ) throws(EtcdError) -> [HPACK.Field] {
        var block = fragment
        var complete = complete
        while !complete {
            guard case .continuation(stream, let more, let end) = try nextFrame(until: deadline)
            else { throw bad("a header block broken off by another frame") }
            guard block.count + more.count <= decoder.maxListSize else {
                throw bad("a header block too large")
            }
            block.append(contentsOf: more)
            complete = end
        }
        do {
            return try decoder.decode(block)
        } catch {
            throw bad("a header block that does not decode: \(error.reason)")
        }
    }

    /// A frame that is not the call's own: the connection's business.
    private func handle(_ frame: HTTP2Frame, stream: UInt32, _ deadline: Deadline)
        throws(EtcdError)
    {
        switch frame {
        case .settings(let settings):
            for setting in settings {
                switch setting.id {
                case HTTP2Frame.Setting.maxFrameSize: peerMaxFrameSize = Int(setting.value)
                case HTTP2Frame.Setting.initialWindowSize:
                    // Open streams' windows move by the change (RFC 9113, 6.9.2).
                    try grow(&streamWindow, by: Int(setting.value) - peerInitialWindow)
                    peerInitialWindow = Int(setting.value)
                default: break
                }
            }
            try socket.send(HTTP2Frame.settingsAcknowledged.encoded, until: deadline)
        case .ping(let opaque, false):
            try socket.send(
                HTTP2Frame.ping(opaque: opaque, acknowledged: true).encoded, until: deadline)
        case .goAway(let last, let code, _):
            goneAway = (last, code)
            if last < stream {
                throw EtcdError(
                    endpoint: authority,
                    reason: "etcd is going away (\(code)): the call was not taken")
            }
        case .windowUpdate(0, let increment):
            try grow(&connectionWindow, by: increment)
        case .headers(let other, let fragment, _, let endHeaders):
            // Another stream's block: decoded all the same, so the table stays in step.
            _ = try headerBlock(fragment, complete: endHeaders, stream: other, deadline)
        case .continuation:
            throw bad("a CONTINUATION frame with no header block before it")
        default:
            break
        }
    }

    /// The next whole frame, waiting for its bytes until `deadline` however many other
    /// bytes come meanwhile.
    func nextFrame(until deadline: Deadline) throws(EtcdError) -> HTTP2Frame {
        while true {
            guard !deadline.hasPassed else {
                throw EtcdError(
                    endpoint: authority, reason: "no whole answer within \(deadline.text)",
                    kind: .timedOut)
            }
            let start = consumed
            do {
                if let frame = try HTTP2Frame.decode(
                    input, at: &consumed, maxFrameSize: Self.maxFrameSize)
                {
                    lastPayloadLength = consumed - start - HTTP2Frame.headerSize
                    return frame
                }
            } catch {
                try? socket.send(
                    HTTP2Frame.goAway(lastStream: 0, code: error.code, debug: []).encoded,
                    until: Deadline(seconds: 1))
                throw bad("\(error)")
            }
            if consumed > 0 {
                input.removeFirst(consumed)
                consumed = 0
            }
            guard try socket.receive(into: &input, until: deadline) > 0 else {
                throw EtcdError(endpoint: authority, reason: "etcd closed the connection")
            }
        }
    }

    func bad(_ reason: String) -> EtcdError {
        EtcdError(
            endpoint: authority, reason: "a broken HTTP/2 answer: \(reason)", kind: .badResponse)
    }
}
