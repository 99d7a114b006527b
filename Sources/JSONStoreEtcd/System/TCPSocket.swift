import Glibc
import JSONStore

/// A TCP connection, with a deadline on every step: connect, send, receive.
///
/// The etcd target's own thin syscall layer (the library's `System/` knows no sockets, so a
/// program that only uses directories links none of this). One owner closes it.
final class TCPSocket: ByteStream {
    /// The descriptor; -1 once closed. Only `close` changes it, under `closing`.
    private var fd: CInt
    /// Whether `close` has begun; it holds `close` and `shutdown` apart: a shutdown from
    /// another thread (a watch interrupted while its owner closes it) never reaches the
    /// number after it was closed, by then perhaps another file's.
    private let closing = Locked(false)
    let endpoint: String
    /// The descriptor, for a TLS session over it.
    var descriptor: CInt { fd }
    /// Where `receive` reads to, made once: the socket is read by one thread at a time.
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    /// Connects to `host:port` (a name, an IPv4 or an IPv6 address) by `deadline`.
    ///
    /// - Throws: `EtcdError`, of kind `.unknownHost` when the name does not resolve and
    ///   `.connectionRefused` when nothing listens at the port.
    ///
    /// The corresponding C functions are `getaddrinfo`, `socket`, `connect` and `poll`.
    init(host: String, port: UInt16, until deadline: Deadline) throws(EtcdError) {
        endpoint = "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let found = getaddrinfo(host, String(port), &hints, &list)
        guard found == 0, let first = list else {
            // A name that does not exist stays so; a resolver that failed may come back.
            let permanent = found == EAI_NONAME || found == -5  // EAI_NODATA, a GNU extension
            throw EtcdError(
                endpoint: endpoint,
                reason: "cannot resolve the host: \(String(cString: gai_strerror(found)))",
                kind: permanent ? .unknownHost : .other)
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var refused = false
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let socketFD = socket(
                info.pointee.ai_family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                    | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard socketFD >= 0 else {
                lastError = Self.errnoText()
                continue
            }
            // The connection's error, read once: reading `SO_ERROR` clears it.
            var code: CInt = 0
            if connect(socketFD, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 {
                code = errno
                if code == EINPROGRESS {
                    code =
                        Self.wait(socketFD, for: Int16(POLLOUT), deadline.remaining) == nil
                        ? Self.socketError(socketFD) : ETIMEDOUT
                }
            }
            if code == 0 {
                Self.configure(socketFD)
                fd = socketFD
                return
            }
            Glibc.close(socketFD)
            refused = refused || code == ECONNREFUSED
            lastError =
                code == ECONNREFUSED
                ? "connection refused: is etcd running at \(endpoint)?"
                : code == ETIMEDOUT
                    ? "cannot connect: no answer within \(deadline.text)"
                    : "cannot connect: \(String(cString: strerror(code)))"
        }
        throw EtcdError(
            endpoint: endpoint, reason: lastError, kind: refused ? .connectionRefused : .other)
    }

    deinit { close() }

    /// No delay for small requests, and keep-alive probes, so a watch that waits for days
    /// on a quiet prefix notices a peer that vanished (after 15 s idle, every 5 s, 3 times).
    private static func configure(_ fd: CInt) {
        func set(_ level: CInt, _ option: CInt, _ value: CInt) {
            var value = value
            _ = setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<CInt>.size))
        }
        set(CInt(IPPROTO_TCP), TCP_NODELAY, 1)
        set(SOL_SOCKET, SO_KEEPALIVE, 1)
        set(CInt(IPPROTO_TCP), TCP_KEEPIDLE, 15)
        set(CInt(IPPROTO_TCP), TCP_KEEPINTVL, 5)
        set(CInt(IPPROTO_TCP), TCP_KEEPCNT, 3)
    }

    /// Whether the peer has closed the connection, or sent something unasked (an idle
    /// connection gets nothing): a look with `poll` and a peek, no wait.
    ///
    /// The corresponding C functions are `poll` and `recv` with `MSG_PEEK`.
    var isClosedByPeer: Bool {
        guard fd >= 0 else { return true }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) >= 0
    }

    /// Ends the connection both ways without closing the descriptor, so a thread waiting
    /// on it wakes up (and its owner closes it). Safe from another thread.
    func shutdown() {
        closing.withLock { closed in
            if !closed { _ = Glibc.shutdown(fd, CInt(SHUT_RDWR)) }
        }
    }

    /// Closes the connection, once; later calls fail.
    func close() {
        closing.withLock { closed in
            guard !closed else { return }
            closed = true
            Glibc.close(fd)
            fd = -1
        }
    }

    /// Sends all of `bytes` by `deadline`.
    ///
    /// The corresponding C functions are `send` (with `MSG_NOSIGNAL`) and `poll`.
    func send(_ bytes: [UInt8], until deadline: Deadline) throws(EtcdError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EINTR) {
                try wait(for: Int16(POLLOUT), until: deadline, doing: "cannot send: ")
            } else {
                throw EtcdError(endpoint: endpoint, reason: "cannot send: \(Self.errnoText())")
            }
        }
    }

    /// Appends what arrives to `buffer`, waiting until `deadline` at most for something,
    /// or until `wake` is signalled.
    ///
    /// - Returns: how many bytes arrived; 0 when the peer closed the connection; `nil` when
    ///   woken (the signal taken).
    /// - Throws: `EtcdError` when the deadline passes (`.timedOut`) or on a failure.
    ///
    /// The corresponding C functions are `recv` and `poll`.
    func receive(into buffer: inout [UInt8], until deadline: Deadline, wake: WakeSignal?)
        throws(EtcdError) -> Int?
    {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count >= 0 {
                buffer.append(contentsOf: chunk[..<count])
                return count
            }
            guard errno == EAGAIN || errno == EINTR else {
                throw EtcdError(endpoint: endpoint, reason: "cannot receive: \(Self.errnoText())")
            }
            guard try wait(for: Int16(POLLIN), until: deadline, wake: wake) else { return nil }
        }
    }

    /// Waits until the socket is ready for `events` (`true`) or `wake` is signalled
    /// (`false`, the signal taken), or throws: `.timedOut` once `deadline` passed.
    func wait(for events: Int16, until deadline: Deadline, wake: WakeSignal?) throws(EtcdError)
        -> Bool
    {
        guard let wake, wake.readEnd >= 0 else {
            try wait(for: events, until: deadline, doing: "")
            return true
        }
        var entries = [
            pollfd(fd: fd, events: events, revents: 0),
            pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds = Self.milliseconds(deadline.remaining)
        while true {
            let ready = poll(&entries, 2, milliseconds)
            if ready > 0 {
                guard entries[1].revents == 0 else {
                    wake.drain()
                    return false
                }
                return true
            }
            if ready == 0 {
                throw EtcdError(
                    endpoint: endpoint, reason: "no whole answer within \(deadline.text)",
                    kind: .timedOut)
            }
            if errno != EINTR {
                throw EtcdError(endpoint: endpoint, reason: Self.errnoText())
            }
        }
    }

    /// Waits until the socket is ready for `events`, or throws: `.timedOut` once
    /// `deadline` passed.
    func wait(for events: Int16, until deadline: Deadline, doing what: String) throws(EtcdError) {
        guard let failure = Self.wait(fd, for: events, deadline.remaining) else { return }
        if deadline.hasPassed {
            throw EtcdError(
                endpoint: endpoint, reason: "\(what)no whole answer within \(deadline.text)",
                kind: .timedOut)
        }
        throw EtcdError(endpoint: endpoint, reason: what + failure)
    }

    /// Waits until `fd` is ready for `events`; the reason when it is not within `timeout`.
    static func wait(_ fd: CInt, for events: Int16, _ timeout: Double) -> String? {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let milliseconds = milliseconds(timeout)
        while true {
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return nil }
            if ready == 0 { return "no answer within \(timeout) s" }
            if errno != EINTR { return errnoText() }
        }
    }

    /// `timeout` seconds as `poll` takes them: rounded up, so a wait until a deadline never
    /// ends before it; -1 (no end) for infinity.
    private static func milliseconds(_ timeout: Double) -> Int32 {
        timeout.isFinite ? Int32(max(0, min((timeout * 1000).rounded(.up), 1e9))) : -1
    }

    private static func socketError(_ fd: CInt) -> CInt {
        var code: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
        return code
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
