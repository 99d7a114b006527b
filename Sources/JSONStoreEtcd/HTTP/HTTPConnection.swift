/// HTTP/1.1 over one kept-alive TCP connection, as much of it as etcd's JSON gateway needs:
/// `POST` with a JSON body; a response with `Content-Length`, or chunked (the watch stream,
/// one JSON object a chunk).
///
/// What the server sends is untrusted: every length is checked before it is used (digits
/// only, at most `maxBody`), a line is at most `maxLine` bytes and a head at most
/// `maxHeaders` lines, so a broken or hostile server gets a clear error naming its
/// endpoint, never a crash or memory that grows without end. Every read waits only until
/// its request's `Deadline`.
final class HTTPConnection {
    let socket: any ByteStream
    private let host: String
    /// What has arrived and is not consumed yet.
    private var buffer: [UInt8] = []
    private var start = 0
    /// How many responses have been read whole: 0 means the connection is fresh.
    private(set) var responses = 0

    /// The longest line (status, header, chunk size) a server may send.
    static let maxLine = 16 << 10
    /// The most header (or trailer) lines a response may have.
    static let maxHeaders = 256
    /// The largest body (or chunk, or answer of the watch stream) taken: far over what etcd
    /// sends (a page of a range is about 4 MiB, a value at most its 1.5 MiB request limit).
    static let maxBody = 512 << 20

    /// HTTP over `socket`, whose server is `host`.
    init(socket: any ByteStream, host: String) {
        self.socket = socket
        self.host = host
    }

    var endpoint: String { socket.endpoint }

    /// The head of a response: its status and whether its body is chunked (else its length).
    struct Head {
        let status: Int
        let chunked: Bool
        let length: Int
    }

    /// Sends `POST path` with `body` (JSON), and an `Authorization` header when there is
    /// a token (etcd's auth).
    func post(
        _ path: String, body: [UInt8], token: String? = nil, headers: [String] = [],
        until deadline: Deadline
    ) throws(EtcdError) {
        let authorization =
            (token.map { "Authorization: \($0)\r\n" } ?? "")
            + headers.map { $0 + "\r\n" }.joined()
        var request = Array(
            "POST \(path) HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/json\r\n\(authorization)Content-Length: \(body.count)\r\n\r\n"
                .utf8)
        request += body
        try socket.send(request, until: deadline)
    }

    /// An error for what the server sent.
    private func bad(_ reason: String) -> EtcdError {
        EtcdError(endpoint: endpoint, reason: reason, kind: .badResponse)
    }

    /// Reads a response's head.
    func head(until deadline: Deadline) throws(EtcdError) -> Head {
        let statusLine = try line(until: deadline)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].utf8.count == 3,
            let status = Self.decimal(parts[1]), (100...599).contains(status)
        else {
            throw bad("not an HTTP response: \(statusLine.prefix(100))")
        }
        var chunked = false
        var length: Int?
        var count = 0
        while true {
            let header = try line(until: deadline)
            if header.isEmpty { break }
            count += 1
            guard count <= Self.maxHeaders else {
                throw bad("more than \(Self.maxHeaders) header lines in a response")
            }
            guard let colon = header.firstIndex(of: ":") else { continue }
            let name = header[..<colon].lowercased()
            let value = header[header.index(after: colon)...].trimmingSpaces()
            if name == "transfer-encoding" { chunked = value.lowercased().contains("chunked") }
            if name == "content-length" {
                guard let number = Self.decimal(value), number <= Self.maxBody,
                    length == nil || length == number
                else {
                    throw bad(
                        "a bad Content-Length: \(value.prefix(40)) (a number of bytes up to \(Self.maxBody >> 20) MiB expected)"
                    )
                }
                length = number
            }
        }
        return Head(status: status, chunked: chunked, length: length ?? 0)
    }

    /// A whole body of a response whose head was `head`.
    func body(of head: Head, until deadline: Deadline) throws(EtcdError) -> [UInt8] {
        defer { responses += 1 }
        guard head.chunked else { return try bytes(head.length, until: deadline) }
        var body: [UInt8] = []
        while let chunk = try chunk(until: deadline) {
            guard body.count + chunk.count <= Self.maxBody else {
                throw bad("a chunked body over \(Self.maxBody >> 20) MiB")
            }
            body += chunk
        }
        return body
    }

    /// The next chunk of a chunked body, or `nil` at its end.
    func chunk(until deadline: Deadline) throws(EtcdError) -> [UInt8]? {
        let sizeLine = try line(until: deadline)
        let sizeText = (sizeLine.split(separator: ";").first ?? "").trimmingSpaces()
        guard let size = Self.hexadecimal(sizeText), size <= Self.maxBody else {
            throw bad(
                "a bad chunk size: \(sizeLine.prefix(40)) (a hexadecimal number of bytes up to \(Self.maxBody >> 20) MiB expected)"
            )
        }
        if size == 0 {
            var trailers = 0
            while try !line(until: deadline).isEmpty {
                trailers += 1
                guard trailers <= Self.maxHeaders else {
                    throw bad("more than \(Self.maxHeaders) trailer lines after a chunked body")
                }
            }
            return nil
        }
        let data = try bytes(size, until: deadline)
        guard try line(until: deadline).isEmpty else { throw bad("a chunk without its line end") }
        return data
    }

    /// `text` as a decimal number of at most 18 digits (no sign, no spaces), else `nil`.
    static func decimal<S: StringProtocol>(_ text: S) -> Int? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= 0x30 && digit <= 0x39 else { return nil }
            value = value * 10 + Int(digit - 0x30)
        }
        return value
    }

    /// `text` as a hexadecimal number of at most 15 digits, else `nil`.
    static func hexadecimal<S: StringProtocol>(_ text: S) -> Int? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        var value = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case 0x30...0x39: nibble = digit - 0x30
            case 0x41...0x46: nibble = digit - 0x41 + 10
            case 0x61...0x66: nibble = digit - 0x61 + 10
            default: return nil
            }
            value = value << 4 | Int(nibble)
        }
        return value
    }

    /// Makes sure at least `count` unconsumed bytes have arrived (`count` at most
    /// `maxBody` + 2, checked by the callers).
    private func need(_ count: Int, until deadline: Deadline) throws(EtcdError) {
        while buffer.count - start < count {
            // What was consumed goes before more is read, so a watch that runs for days
            // holds only what has not been read yet.
            if start > 0 && (start == buffer.count || start > 64 << 10) {
                buffer.removeFirst(start)
                start = 0
            }
            guard !deadline.hasPassed else {
                throw EtcdError(
                    endpoint: endpoint, reason: "no whole answer within \(deadline.text)",
                    kind: .timedOut)
            }
            guard try socket.receive(into: &buffer, until: deadline) > 0 else {
                throw EtcdError(endpoint: endpoint, reason: "the connection was closed")
            }
        }
    }

    private func bytes(_ count: Int, until deadline: Deadline) throws(EtcdError) -> [UInt8] {
        try need(count, until: deadline)
        defer { start += count }
        return Array(buffer[start..<(start + count)])
    }

    /// The next line, without its CRLF; at most `maxLine` bytes.
    private func line(until deadline: Deadline) throws(EtcdError) -> String {
        var scanned = start
        while true {
            if let end = buffer[scanned...].firstIndex(of: 0x0A) {
                var last = end
                if last > start && buffer[last - 1] == 0x0D { last -= 1 }
                guard last - start <= Self.maxLine else { break }
                let text = String(decoding: buffer[start..<last], as: UTF8.self)
                start = end + 1
                return text
            }
            let before = buffer.count - start
            guard before <= Self.maxLine else { break }
            try need(before + 1, until: deadline)
            scanned = start + before
        }
        throw bad("a line longer than \(Self.maxLine >> 10) KiB in a response")
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        String(
            drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
