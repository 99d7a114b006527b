#if !FUZZING
    import JSONStore
    @testable import JSONStoreEtcd
#endif

// The HTTP response parser's property, shared by the libFuzzer target
// (Tests/Fuzz/HTTPResponseFuzz.swift, built by scripts/fuzz with the library's sources and
// JSONStoreEtcd's HTTP files as one module, -D FUZZING) and by HTTPFuzzCorpusTests, which
// replays the checked-in corpus under swift test.
//
// The input is what a server sends, its first byte choosing how the stream is cut into
// reads. Parsing it never crashes and never holds more than the input: a head and a body
// (by length or chunked) come out, or an error naming the endpoint whose reason holds no
// raw control character. A body by length is its length of the bytes sent.

/// A server's answer from memory, handed out `piece` bytes a read.
final class ScriptedStream: ByteStream {
    let endpoint = "fuzz:1"
    private var rest: ArraySlice<UInt8>
    private let piece: Int

    init(_ bytes: ArraySlice<UInt8>, piece: Int) {
        rest = bytes
        self.piece = max(1, piece)
    }

    func send(_ bytes: [UInt8], until deadline: Deadline) throws(EtcdError) {}

    func receive(into buffer: inout [UInt8], until deadline: Deadline, wake: WakeSignal?)
        throws(EtcdError) -> Int?
    {
        let count = min(piece, rest.count)
        buffer += rest.prefix(count)
        rest = rest.dropFirst(count)
        return count
    }

    var isClosedByPeer: Bool { rest.isEmpty }
    func shutdown() {}
    func close() {}
}

/// Checks the parser's properties on `bytes`: `nil` when they hold, else which failed.
func httpResponseProperty(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard let first = bytes.first else { return nil }
    let input = Array(bytes.dropFirst())
    let pieces = [1, 2, 3, 7, 64, 4096, 1 << 20]
    let connection = HTTPConnection(
        socket: ScriptedStream(input[...], piece: pieces[Int(first) % pieces.count]), host: "fuzz")
    let deadline = Deadline(seconds: 60)
    do {
        // Two responses in a row, as on a kept-alive connection.
        var read = 0
        for _ in 0..<2 {
            let head = try connection.head(until: deadline)
            guard (100...599).contains(head.status) else { return "status \(head.status)" }
            guard head.length >= 0, head.length <= HTTPConnection.maxBody else {
                return "length \(head.length)"
            }
            let body = try connection.body(of: head, until: deadline)
            read += body.count
            guard read <= input.count else { return "\(read) bytes of body from \(input.count)" }
            if !head.chunked {
                guard body.count == head.length else {
                    return "a body of \(body.count) bytes for a length of \(head.length)"
                }
                guard body.isEmpty || input.firstRange(of: body) != nil else {
                    return "a body that is not the bytes sent"
                }
            }
        }
        return nil
    } catch {
        if error.endpoint != "fuzz:1" { return "endpoint \(error.endpoint)" }
        if error.reason.isEmpty { return "an empty reason" }
        if error.reason.unicodeScalars.contains(where: Display.isUnsafe) {
            return "a raw control character in \(error.reason.debugDescription)"
        }
        return nil
    }
}
