extension GRPCConnection {
    /// What one call's stream brings back: its headers, its messages, its trailers.
    private struct Answer {
        var headers: [HPACK.Field]?
        var messages = GRPCMessages(maxMessageSize: GRPCConnection.maxMessageSize)
        var taken: [[UInt8]] = []
        var status: GRPCStatus?
        /// DATA taken on the stream since this side last granted room on it again.
        var takenSinceGrant = 0
    }

    /// Reads frames until `stream` ends, and gives its one message.
    func answer(on stream: UInt32, until deadline: Deadline) throws(EtcdError) -> [UInt8] {
        var answer = Answer()
        while answer.status == nil {
            let frame = try nextFrame(until: deadline)
            switch frame {
            case .headers(stream, let fragment, let endStream, let endHeaders):
                let fields = try headerBlock(
                    fragment, complete: endHeaders, stream: stream, deadline)
                if answer.headers == nil,
                    !endStream || fields.contains(where: { $0.name == Array(":status".utf8) })
                {
                    try check(fields)
                    answer.headers = fields
                }
                if endStream {
                    answer.status =
                        GRPCStatus(fields)
                        ?? GRPCStatus(code: .unknown, message: "no grpc-status in the trailers")
                }
            case .data(stream, let data, let endStream):
                try took(data.count, stream: stream, &answer, until: deadline)
                do {
                    answer.taken += try answer.messages.take(data)
                } catch {
                    throw bad(error.reason)
                }
                if endStream {
                    answer.status = GRPCStatus(
                        code: .internal, message: "the answer ended with no trailers")
                }
            case .resetStream(stream, let code):
                throw EtcdError(endpoint: authority, reason: "etcd reset the call (\(code))")
            default:
                try handle(frame, stream: stream)
            }
        }
        if let status = answer.status, status.code != .ok {
            let kind: EtcdError.Kind =
                switch status.code {
                case .unauthenticated: .authenticationFailed
                case .deadlineExceeded: .timedOut
                default: .other
                }
            throw EtcdError(endpoint: authority, reason: "etcd answered \(status)", kind: kind)
        }
        guard answer.taken.count == 1, !answer.messages.isMidMessage else {
            throw bad("\(answer.taken.count) messages in an answer of one")
        }
        return answer.taken[0]
    }

    /// The response's headers say it is gRPC's answer: `:status` 200.
    private func check(_ fields: [HPACK.Field]) throws(EtcdError) {
        let status = fields.first { $0.name == Array(":status".utf8) }?.value
        guard status == Array("200".utf8) else {
            throw bad(
                "HTTP status \(String(decoding: status ?? [], as: UTF8.self)) for a gRPC call")
        }
    }

    /// DATA of `count` bytes taken on `stream`: room granted back on the stream and the
    /// connection once half of it is used.
    private func took(
        _ count: Int, stream: UInt32, _ answer: inout Answer, until deadline: Deadline
    )
        throws(EtcdError)
    {
        answer.takenSinceGrant += count
        takenSinceGrant += count
        var grants: [UInt8] = []
        if answer.takenSinceGrant >= streamWindowSize / 2 {
            grants +=
                HTTP2Frame.windowUpdate(stream: stream, increment: UInt32(answer.takenSinceGrant))
                .encoded
            answer.takenSinceGrant = 0
        }
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
            else {
                throw bad("a header block broken off by another frame")
            }
            guard block.count + more.count <= decoder.maxListSize else {
                throw bad("a header block too large")
            }
            (block, complete) = (block + more, end)
        }
        do {
            return try decoder.decode(block)
        } catch {
            throw bad("a header block that does not decode: \(error.reason)")
        }
    }

    /// A frame that is not the call's own: the connection's business.
    func handle(_ frame: HTTP2Frame, stream: UInt32) throws(EtcdError) {
        switch frame {
        case .settings(let settings):
            for setting in settings {
                switch setting.id {
                case HTTP2Frame.Setting.maxFrameSize: peerMaxFrameSize = Int(setting.value)
                case HTTP2Frame.Setting.initialWindowSize: peerInitialWindow = Int(setting.value)
                default: break
                }
            }
            try socket.send(HTTP2Frame.settingsAcknowledged.encoded, until: Deadline(seconds: 5))
        case .ping(let opaque, false):
            try socket.send(
                HTTP2Frame.ping(opaque: opaque, acknowledged: true).encoded,
                until: Deadline(seconds: 5))
        case .goAway(let last, let code, _):
            goneAway = (last, code)
            if last < stream {
                throw EtcdError(
                    endpoint: authority,
                    reason: "etcd is going away (\(code)): the call was not taken")
            }
        case .windowUpdate(0, let increment):
            connectionWindow += Int(increment)
        case .headers(let other, let fragment, _, let endHeaders):
            // Another stream's block (one this side gave up on): decoded all the same, so
            // the table stays in step.
            _ = try headerBlock(fragment, complete: endHeaders, stream: other, Deadline(seconds: 5))
        case .continuation:
            throw bad("a CONTINUATION frame with no header block before it")
        default:
            break
        }
    }

    /// The next whole frame, waiting for its bytes.
    func nextFrame(until deadline: Deadline) throws(EtcdError) -> HTTP2Frame {
        while true {
            do {
                if let frame = try HTTP2Frame.decode(
                    input, at: &consumed, maxFrameSize: Self.maxFrameSize)
                {
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
