/// HTTP/1.1 over one kept-alive TCP connection, as much of it as etcd's JSON gateway needs:
/// `POST` with a JSON body; a response with `Content-Length`, or chunked (the watch stream,
/// one JSON object a chunk).
final class HTTPConnection {
    let socket: any ByteStream
    private let host: String
    /// What has arrived and is not consumed yet.
    private var buffer: [UInt8] = []
    private var start = 0
    /// How many responses have been read whole: 0 means the connection is fresh.
    private(set) var responses = 0

    /// Connects to `host:port`, over TLS with `tls`.
    init(host: String, port: UInt16, tls: TLSContext? = nil, timeout: Double) throws(EtcdError) {
        if let tls {
            socket = try TLSSocket(host: host, port: port, context: tls, timeout: timeout)
        } else {
            socket = try TCPSocket(host: host, port: port, timeout: timeout)
        }
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
        timeout: Double
    ) throws(EtcdError) {
        let authorization =
            (token.map { "Authorization: \($0)\r\n" } ?? "")
            + headers.map { $0 + "\r\n" }.joined()
        var request = Array(
            "POST \(path) HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/json\r\n\(authorization)Content-Length: \(body.count)\r\n\r\n"
                .utf8)
        request += body
        try socket.send(request, timeout: timeout)
    }

    /// Reads a response's head.
    func head(timeout: Double) throws(EtcdError) -> Head {
        let statusLine = try line(timeout: timeout)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw EtcdError(endpoint: endpoint, reason: "not an HTTP response: \(statusLine)")
        }
        var chunked = false
        var length = 0
        while true {
            let header = try line(timeout: timeout)
            if header.isEmpty { break }
            guard let colon = header.firstIndex(of: ":") else { continue }
            let name = header[..<colon].lowercased()
            let value = header[header.index(after: colon)...].trimmingSpaces()
            if name == "transfer-encoding" { chunked = value.lowercased().contains("chunked") }
            if name == "content-length" { length = Int(value) ?? 0 }
        }
        return Head(status: status, chunked: chunked, length: length)
    }

    /// A whole body of a response whose head was `head`.
    func body(of head: Head, timeout: Double) throws(EtcdError) -> [UInt8] {
        defer { responses += 1 }
        guard head.chunked else { return try bytes(head.length, timeout: timeout) }
        var body: [UInt8] = []
        while let chunk = try chunk(timeout: timeout) { body += chunk }
        return body
    }

    /// The next chunk of a chunked body, or `nil` at its end.
    func chunk(timeout: Double) throws(EtcdError) -> [UInt8]? {
        let sizeLine = try line(timeout: timeout)
        let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
        guard let size = Int(sizeText.trimmingSpaces(), radix: 16) else {
            throw EtcdError(endpoint: endpoint, reason: "a bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            while try !line(timeout: timeout).isEmpty {}  // trailers
            return nil
        }
        let data = try bytes(size, timeout: timeout)
        guard try line(timeout: timeout).isEmpty else {
            throw EtcdError(endpoint: endpoint, reason: "a chunk without its line end")
        }
        return data
    }

    /// Makes sure at least `count` unconsumed bytes have arrived.
    private func need(_ count: Int, timeout: Double) throws(EtcdError) {
        while buffer.count - start < count {
            // What was consumed goes before more is read, so a watch that runs for days
            // holds only what has not been read yet.
            if start > 0 && (start == buffer.count || start > 64 << 10) {
                buffer.removeFirst(start)
                start = 0
            }
            guard try socket.receive(into: &buffer, timeout: timeout) > 0 else {
                throw EtcdError(endpoint: endpoint, reason: "the connection was closed")
            }
        }
    }

    private func bytes(_ count: Int, timeout: Double) throws(EtcdError) -> [UInt8] {
        try need(count, timeout: timeout)
        defer { start += count }
        return Array(buffer[start..<(start + count)])
    }

    /// The next line, without its CRLF.
    private func line(timeout: Double) throws(EtcdError) -> String {
        var scanned = start
        while true {
            if let end = buffer[scanned...].firstIndex(of: 0x0A) {
                var last = end
                if last > start && buffer[last - 1] == 0x0D { last -= 1 }
                let text = String(decoding: buffer[start..<last], as: UTF8.self)
                start = end + 1
                return text
            }
            scanned = buffer.count
            let before = buffer.count - start
            try need(before + 1, timeout: timeout)
            scanned = start + before
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        String(
            drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
