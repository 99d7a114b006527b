import JSONStore

extension GRPCConnection {
    /// Begins a call of `method`, its headers sent with `metadata` (the token) and, with a
    /// finite `deadline`, `grpc-timeout`; `single`: its answer is one message.
    func open(
        _ method: String, metadata: [HPACK.Field] = [], single: Bool = false,
        until deadline: Deadline
    ) throws(EtcdError) -> GRPCStream {
        var headers: [HPACK.Field] = [
            .init(":method", "POST"), .init(":scheme", scheme), .init(":path", method),
            .init(":authority", authority), .init("content-type", "application/grpc"),
            .init("te", "trailers"),
        ]
        if let timeout = Self.timeout(deadline.remaining) {
            headers.append(.init("grpc-timeout", timeout))
        }
        let block = HPACKEncoder.encode(headers + metadata)
        return try writing.withLock { next -> Result<GRPCStream, EtcdError> in
            let id = next
            let opened = shared.withLock { shared -> Result<Int, EtcdError> in
                if let failure = shared.failure {
                    // Given up before the call began: nothing of it went.
                    return .failure(
                        EtcdError(endpoint: authority, reason: failure.reason, kind: .notTaken))
                }
                if let (_, code) = shared.goneAway {
                    return .failure(notTaken(code))
                }
                guard id < 1 << 31 else {
                    return .failure(
                        EtcdError(endpoint: authority, reason: "the connection has no ids left"))
                }
                shared.streams[id] = Stream(sendWindow: shared.peerInitialWindow, single: single)
                return .success(shared.peerMaxFrameSize)
            }
            guard case .success(let frameSize) = opened else {
                return opened.map { _ in GRPCStream(connection: self, id: id) }
            }
            next += 2
            // A header block as HEADERS and, past the server's frame size, CONTINUATION.
            var frames: [UInt8] = []
            var at = 0
            repeat {
                let end = min(block.count, at + frameSize)
                let fragment = Array(block[at..<end])
                frames +=
                    (at == 0
                    ? HTTP2Frame.headers(
                        stream: id, fragment: fragment, endStream: false,
                        endHeaders: end == block.count)
                    : HTTP2Frame.continuation(
                        stream: id, fragment: fragment, endHeaders: end == block.count)).encoded
                at = end
            } while at < block.count
            do throws(EtcdError) {
                try socket.send(frames, until: deadline)
            } catch {
                // Part of a header block may have gone: the connection cannot go on.
                fail(error)
                return .failure(error)
            }
            return .success(GRPCStream(connection: self, id: id))
        }.get()
    }

    /// Sends `body` as DATA on stream `id`, each frame within the server's frame size and
    /// the room it left on the stream and the connection, waiting for room until
    /// `deadline`; the last ends the stream with `endStream`. A server may answer before
    /// the request is all sent (RFC 9113, 8.1): then the rest is not sent.
    func sendData(
        _ body: [UInt8], endStream: Bool, on id: UInt32, until deadline: Deadline
    ) throws(EtcdError) {
        var at = 0
        repeat {
            let left = body.count - at
            let room = waitReading(until: deadline) { shared -> Result<Int, EtcdError>? in
                if let failure = shared.failure { return .failure(failure) }
                let (connectionRoom, frameSize) = (shared.sendWindow, shared.peerMaxFrameSize)
                let taken = shared.stream(id) { stream -> Result<Int, EtcdError>? in
                    if stream.status != nil { return .success(-1) }
                    if let error = stream.error { return .failure(error) }
                    let room = min(left, stream.sendWindow, connectionRoom, frameSize)
                    guard room > 0 || left == 0 else { return nil }
                    stream.sendWindow -= room
                    return .success(room)
                }
                guard let taken else {
                    return .failure(EtcdError(endpoint: authority, reason: "the call has ended"))
                }
                if case .success(let room)? = taken, room > 0 { shared.sendWindow -= room }
                return taken
            }
            switch room {
            case nil:
                cancel(id)
                throw EtcdError(
                    endpoint: authority, reason: "no room to send within \(deadline.text)",
                    kind: .timedOut)
            case .failure(let error)?:
                throw error
            case .success(-1)?:
                // Answered: the request's rest is not wanted.
                try? send(
                    HTTP2Frame.resetStream(stream: id, code: .noError).encoded, until: deadline)
                return
            case .success(let count)?:
                let last = at + count == body.count
                try send(
                    HTTP2Frame.data(
                        stream: id, data: Array(body[at..<at + count]), endStream: last && endStream
                    ).encoded, until: deadline)
                at += count
            }
        } while at < body.count
    }

    /// The next message on stream `id`, `nil` once it ended with OK; see
    /// `GRPCStream.receive`.
    func receive(on id: UInt32, until deadline: Deadline) throws(EtcdError) -> [UInt8]? {
        let taken = waitReading(until: deadline) {
            shared -> Result<(message: [UInt8]?, grant: Int), EtcdError>? in
            let next = shared.stream(id) {
                stream -> Result<(message: [UInt8]?, grant: Int), EtcdError>? in
                if !stream.inbox.isEmpty {
                    let message = stream.inbox.removeFirst()
                    stream.inboxBytes -= message.count
                    return .success((message, stream.grant(window: streamWindowSize)))
                }
                if let error = stream.error { return .failure(error) }
                if let status = stream.status {
                    return status.code == .ok ? .success((nil, 0)) : .failure(error(status))
                }
                return nil
            }
            guard let next else {
                return .failure(EtcdError(endpoint: authority, reason: "the call has ended"))
            }
            if case .success((nil, _))? = next { shared.streams[id] = nil }
            if next == nil, let failure = shared.failure { return .failure(failure) }
            return next
        }
        switch taken {
        case nil:
            throw EtcdError(
                endpoint: authority, reason: "no whole answer within \(deadline.text)",
                kind: .timedOut)
        case .failure(let error)?:
            throw error
        case .success(let taken)?:
            if taken.grant > 0 {
                try? send(
                    HTTP2Frame.windowUpdate(stream: id, increment: UInt32(taken.grant)).encoded,
                    until: Deadline(seconds: 5))
            }
            return taken.message
        }
    }

    /// Ends stream `id` on this side: forgotten, and the server told to stop if it has not
    /// ended it.
    func cancel(_ id: UInt32) {
        let open = shared.change { shared in
            guard let stream = shared.streams.removeValue(forKey: id) else { return false }
            return !stream.remoteEnded
        }
        if open {
            try? send(
                HTTP2Frame.resetStream(stream: id, code: .cancel).encoded,
                until: Deadline(seconds: 1))
        }
    }

    /// Ends stream `id` with `error`, for its owner to take, unless it ended already; its
    /// owner is woken, also from reading the connection.
    func end(_ id: UInt32, _ error: EtcdError) {
        let reading = shared.change { shared in
            guard shared.streams[id]?.status == nil, shared.streams[id]?.error == nil else {
                return false
            }
            shared.streams[id]?.error = error
            return shared.reading
        }
        if reading { wake.signal() }
    }

    /// A call the server did not take, as its GOAWAY says: it may be made again elsewhere.
    func notTaken(_ code: HTTP2Error.Code) -> EtcdError {
        EtcdError(
            endpoint: authority, reason: "etcd is going away (\(code)): the call was not taken",
            kind: .notTaken)
    }

    /// A status other than OK as an error.
    func error(_ status: GRPCStatus) -> EtcdError {
        let kind: EtcdError.Kind =
            switch status.code {
            case .unauthenticated: .authenticationFailed
            case .deadlineExceeded: .timedOut
            default: .other
            }
        return EtcdError(
            endpoint: authority, reason: "etcd answered \(status)",
            grpcCode: status.code.rawValue, kind: kind)
    }
}
