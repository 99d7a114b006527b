/// gRPC's framing of messages on an HTTP/2 stream's DATA: each message a flag byte
/// (compressed or not), its length in four bytes, big-endian, then its bytes.
///
/// This client asks for no compression, so a compressed message is refused, and a length
/// past `maxMessageSize` is refused from its prefix, before its bytes are waited for.
struct GRPCMessages {
    let maxMessageSize: Int
    /// What the stream has sent past the last whole message.
    private var pending: [UInt8] = []
    private var consumed = 0

    init(maxMessageSize: Int) { self.maxMessageSize = maxMessageSize }

    /// `message` framed.
    static func frame(_ message: [UInt8]) -> [UInt8] {
        precondition(message.count <= Int(UInt32.max))
        return [0] + HTTP2Frame.bigEndian(UInt32(message.count)) + message
    }

    /// Takes a DATA frame's bytes; the whole messages they complete, in order.
    mutating func take(_ data: [UInt8]) throws(GRPCMessages.Refusal) -> [[UInt8]] {
        pending.removeFirst(consumed)
        consumed = 0
        pending += data
        var messages: [[UInt8]] = []
        while pending.count - consumed >= 5 {
            let flag = pending[consumed]
            guard flag == 0 else {
                throw Refusal(
                    reason: "a message compressed (flag \(flag)), though none was asked for")
            }
            let length = Int(HTTP2Frame.bigEndian(pending, at: consumed + 1))
            guard length <= maxMessageSize else {
                throw Refusal(
                    reason: "a message of \(length) bytes, past the \(maxMessageSize) allowed")
            }
            guard pending.count - consumed - 5 >= length else { break }
            messages.append(Array(pending[consumed + 5..<consumed + 5 + length]))
            consumed += 5 + length
        }
        return messages
    }

    /// Whether a message was begun and not finished: at the stream's end, a message cut
    /// short.
    var isMidMessage: Bool { pending.count > consumed }

    struct Refusal: Error, Equatable {
        let reason: String
    }
}
