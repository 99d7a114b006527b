extension HTTP2Frame {
    /// The frame at `offset` in `bytes`, and `offset` moved past it; `nil` while the bytes
    /// hold less than a whole frame (nothing is consumed then).
    ///
    /// A frame longer than `maxFrameSize` (what this side announced) is refused from its
    /// header alone, before its payload is waited for; then each kind is checked as the
    /// RFC requires. A server's push is refused: this client announces none.
    static func decode(_ bytes: [UInt8], at offset: inout Int, maxFrameSize: Int)
        throws(HTTP2Error) -> HTTP2Frame?
    {
        guard bytes.count - offset >= headerSize else { return nil }
        let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
        let (type, flags) = (bytes[offset + 3], bytes[offset + 4])
        // The stream, its reserved bit ignored (4.1).
        let stream = bigEndian(bytes, at: offset + 5) & 0x7FFF_FFFF
        guard length <= maxFrameSize else {
            throw HTTP2Error(
                .frameSizeError, "a frame of \(length) bytes, past the \(maxFrameSize) allowed")
        }
        guard bytes.count - offset - headerSize >= length else { return nil }
        let start = offset + headerSize
        let payload = bytes[start..<start + length]
        let frame = try decode(type: type, flags: flags, stream: stream, payload)
        offset = start + length
        return frame
    }

    private static func decode(
        type: UInt8, flags: UInt8, stream: UInt32, _ payload: ArraySlice<UInt8>
    ) throws(HTTP2Error) -> HTTP2Frame {
        guard let kind = Kind(rawValue: type) else { return .unknown(type: type) }
        let name = kind.name
        // Frames of a stream, and frames of the connection (stream 0).
        switch kind {
        case .data, .headers, .priority, .resetStream, .continuation, .pushPromise:
            guard stream != 0 else {
                throw HTTP2Error(.protocolError, "a \(name) frame on stream 0")
            }
        case .settings, .ping, .goAway:
            guard stream == 0 else {
                throw HTTP2Error(.protocolError, "a \(name) frame on stream \(stream)")
            }
        case .windowUpdate: break
        }
        func exactly(_ count: Int) throws(HTTP2Error) {
            guard payload.count == count else {
                throw HTTP2Error(
                    .frameSizeError, "a \(name) frame of \(payload.count) bytes, not \(count)",
                    stream: kind == .priority ? stream : nil)
            }
        }
        let at = payload.startIndex
        switch kind {
        case .data:
            return .data(
                stream: stream, data: try unpadded(payload, flags, name),
                endStream: flags & Flag.endStream != 0)
        case .headers:
            var fragment = try unpadded(payload, flags, name)
            if flags & Flag.priority != 0 {
                guard fragment.count >= 5 else {
                    throw HTTP2Error(.frameSizeError, "a HEADERS frame too short for its priority")
                }
                fragment.removeFirst(5)
            }
            return .headers(
                stream: stream, fragment: fragment, endStream: flags & Flag.endStream != 0,
                endHeaders: flags & Flag.endHeaders != 0)
        case .priority:
            try exactly(5)
            return .priority(stream: stream)
        case .resetStream:
            try exactly(4)
            return .resetStream(stream: stream, code: .init(rawValue: bigEndian(payload, at: at)))
        case .settings:
            if flags & Flag.acknowledged != 0 {
                try exactly(0)
                return .settingsAcknowledged
            }
            guard payload.count % 6 == 0 else {
                throw HTTP2Error(.frameSizeError, "a SETTINGS frame of \(payload.count) bytes")
            }
            return .settings(try settings(payload))
        case .pushPromise:
            throw HTTP2Error(.protocolError, "a PUSH_PROMISE, though push was turned off")
        case .ping:
            try exactly(8)
            let opaque =
                UInt64(bigEndian(payload, at: at)) << 32 | UInt64(bigEndian(payload, at: at + 4))
            return .ping(opaque: opaque, acknowledged: flags & Flag.acknowledged != 0)
        case .goAway:
            guard payload.count >= 8 else {
                throw HTTP2Error(.frameSizeError, "a GOAWAY frame of \(payload.count) bytes")
            }
            return .goAway(
                lastStream: bigEndian(payload, at: at) & 0x7FFF_FFFF,
                code: .init(rawValue: bigEndian(payload, at: at + 4)),
                debug: Array(payload.dropFirst(8)))
        case .windowUpdate:
            try exactly(4)
            let increment = bigEndian(payload, at: at) & 0x7FFF_FFFF
            guard increment > 0 else {
                throw HTTP2Error(
                    .protocolError, "a WINDOW_UPDATE of 0", stream: stream == 0 ? nil : stream)
            }
            return .windowUpdate(stream: stream, increment: increment)
        case .continuation:
            return .continuation(
                stream: stream, fragment: Array(payload), endHeaders: flags & Flag.endHeaders != 0)
        }
    }

    /// A DATA or HEADERS payload less its padding, when the frame says it is padded (6.1).
    private static func unpadded(_ payload: ArraySlice<UInt8>, _ flags: UInt8, _ name: String)
        throws(HTTP2Error) -> [UInt8]
    {
        guard flags & Flag.padded != 0 else { return Array(payload) }
        guard let padding = payload.first, Int(padding) < payload.count else {
            throw HTTP2Error(.protocolError, "a \(name) frame's padding longer than the frame")
        }
        return Array(payload.dropFirst().dropLast(Int(padding)))
    }

    /// A SETTINGS frame's parameters, each value checked where the RFC bounds it (6.5.2).
    private static func settings(_ payload: ArraySlice<UInt8>) throws(HTTP2Error) -> [Setting] {
        var settings: [Setting] = []
        var at = payload.startIndex
        while at < payload.endIndex {
            let id = UInt16(payload[at]) << 8 | UInt16(payload[at + 1])
            let value = bigEndian(payload, at: at + 2)
            at += 6
            switch id {
            case Setting.enablePush where value > 1:
                throw HTTP2Error(.protocolError, "SETTINGS_ENABLE_PUSH of \(value)")
            case Setting.initialWindowSize where value > 0x7FFF_FFFF:
                throw HTTP2Error(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE of \(value)")
            case Setting.maxFrameSize
            where value < defaultMaxFrameSize || value > 0xFF_FFFF:
                throw HTTP2Error(.protocolError, "SETTINGS_MAX_FRAME_SIZE of \(value)")
            default: break
            }
            settings.append(Setting(id: id, value: value))
        }
        return settings
    }
}
