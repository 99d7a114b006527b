/// What is wrong on an HTTP/2 connection or one of its streams, with the RFC's error code
/// (RFC 9113, section 7): a stream error ends one stream (RST_STREAM), a connection
/// error the connection (GOAWAY).
struct HTTP2Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error codes (7); an unknown one is kept as it came.
    struct Code: RawRepresentable, Equatable, Hashable, Sendable, CustomStringConvertible {
        let rawValue: UInt32
        init(rawValue: UInt32) { self.rawValue = rawValue }

        static let noError = Code(rawValue: 0x0)
        static let protocolError = Code(rawValue: 0x1)
        static let internalError = Code(rawValue: 0x2)
        static let flowControlError = Code(rawValue: 0x3)
        static let settingsTimeout = Code(rawValue: 0x4)
        static let streamClosed = Code(rawValue: 0x5)
        static let frameSizeError = Code(rawValue: 0x6)
        static let refusedStream = Code(rawValue: 0x7)
        static let cancel = Code(rawValue: 0x8)
        static let compressionError = Code(rawValue: 0x9)
        static let connectError = Code(rawValue: 0xA)
        static let enhanceYourCalm = Code(rawValue: 0xB)
        static let inadequateSecurity = Code(rawValue: 0xC)
        static let http11Required = Code(rawValue: 0xD)

        private static let names = [
            "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR",
            "SETTINGS_TIMEOUT", "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL",
            "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY",
            "HTTP_1_1_REQUIRED",
        ]

        var description: String {
            rawValue < Self.names.count
                ? Self.names[Int(rawValue)] : "error 0x\(String(rawValue, radix: 16))"
        }
    }

    let code: Code
    let reason: String
    /// The stream it ends; `nil`: the whole connection.
    let stream: UInt32?

    init(_ code: Code, _ reason: String, stream: UInt32? = nil) {
        (self.code, self.reason, self.stream) = (code, reason, stream)
    }

    var description: String { "\(code): \(reason)" }
}
