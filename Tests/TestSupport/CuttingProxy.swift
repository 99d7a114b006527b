import Foundation
import Glibc
import JSONStore

/// A TCP proxy on a free loopback port in front of a real server (etcd), that a test can
/// arm to lose an answer or a request: the bytes one way are dropped from then on, and the
/// connection is cut `delay` seconds after the first of them. So a request the server took
/// and applied can lose its answer (`.answers`), or a request can be lost before the
/// server sees it (`.requests`); with a marker, the request is the first that carries
/// those bytes (a value it writes). It is armed once: what comes after a cut passes.
///
/// With `speaksHTTP2: false` it is an HTTP/1.1-only proxy: a connection that opens with
/// HTTP/2's preface is answered `505 HTTP Version Not Supported` and closed, as such a
/// proxy in front of etcd answers; every other connection passes (etcd's JSON gateway).
public final class CuttingProxy: @unchecked Sendable {  // state under `lock`
    /// Which way the next bytes are lost.
    public enum Loss: Sendable {
        /// The server's next answer, on every connection open when it comes.
        case answers
        /// The client's next request.
        case requests
        /// The server's next bytes that carry the marker, asked for or not (a watch's event).
        case events
    }

    public let port: UInt16
    private let upstream: UInt16
    private let listener: CInt
    private let delay: Double
    private let speaksHTTP2: Bool
    private struct State {
        var stopped = false
        var armed: (loss: Loss, marker: [UInt8]?)?
        /// The connection whose next answer is lost: its request with the marker went.
        var marked: Int?
        var connections = 0
        var sockets: [CInt] = []
        var threads = 0
        var cuts = 0
    }
    private let lock = Locked(State())
    /// How many connections it has cut.
    public var cuts: Int { lock.withLock { $0.cuts } }

    /// Listens on `127.0.0.1` at a free port, passing everything to `upstream` there.
    public init(to upstream: UInt16, delay: Double = 0.3, speaksHTTP2: Bool = true) throws {
        self.upstream = upstream
        self.delay = delay
        self.speaksHTTP2 = speaksHTTP2
        let (listener, port) = try Loopback.listen()
        self.listener = listener
        self.port = port
        lock.withLock { $0.threads += 1 }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// `127.0.0.1:PORT`.
    public var endpoint: String { "127.0.0.1:\(port)" }

    /// Loses the next bytes `loss` says, and cuts their connection; with `marker`, the
    /// first request that carries it, or the answer that comes after it.
    public func arm(_ loss: Loss, marker: [UInt8]? = nil) {
        lock.withLock {
            $0.armed = (loss, marker)
            $0.marked = nil
        }
    }

    /// Closes the listener and every connection, and waits for the threads to end.
    public func stop() {
        // Once: a second stop would close the same numbers again, by then another test's.
        let sockets = lock.withLock { state -> [CInt]? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.sockets
        }
        guard let sockets else { return }
        Glibc.shutdown(listener, CInt(SHUT_RDWR))
        for socket in sockets { Glibc.shutdown(socket, CInt(SHUT_RDWR)) }
        while lock.withLock({ $0.threads }) > 0 { usleep(1_000) }
        Glibc.close(listener)
        for socket in sockets { Glibc.close(socket) }
    }

    private func acceptLoop() {
        defer { lock.withLock { $0.threads -= 1 } }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            guard !speaksHTTP2 else {
                pass(client)
                continue
            }
            // What the client opens with is looked at on a thread of its own, so that one
            // slow to speak holds up no other.
            lock.withLock { $0.threads += 1 }
            Thread.detachNewThread { [self] in
                defer { lock.withLock { $0.threads -= 1 } }
                if Self.opensHTTP2(client) {
                    Self.refuseHTTP2(client)
                } else {
                    pass(client)
                }
            }
        }
    }

    /// Connects `client` to the upstream server and passes bytes both ways.
    private func pass(_ client: CInt) {
        guard let server = Loopback.connect(to: upstream) else {
            Glibc.close(client)
            return
        }
        let kept = lock.withLock { state -> Int? in
            guard !state.stopped else { return nil }
            state.sockets += [client, server]
            state.threads += 2
            state.connections += 1
            return state.connections
        }
        guard let connection = kept else {
            Glibc.close(client)
            Glibc.close(server)
            return
        }
        Thread.detachNewThread { [self] in
            pump(from: client, to: server, loss: .requests, connection: connection)
        }
        Thread.detachNewThread { [self] in
            pump(from: server, to: client, loss: .answers, connection: connection)
        }
    }

    /// Passes what `source` sends to `target`, until either closes; drops it and cuts both
    /// once the proxy is armed for `loss`.
    private func pump(from source: CInt, to target: CInt, loss: Loss, connection: Int) {
        defer { lock.withLock { $0.threads -= 1 } }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            let chunk = buffer[..<count]
            let lost = lock.withLock { state -> Bool in
                guard let (armed, marker) = state.armed else { return false }
                let carries = marker.map { Self.contains(chunk, $0) } ?? true
                switch (loss, armed) {
                case (.requests, .requests) where carries: break
                case (.requests, .answers) where marker != nil && carries:
                    state.marked = connection
                    return false
                case (.answers, .answers) where marker == nil || state.marked == connection: break
                case (.answers, .events) where carries: break
                default: return false
                }
                state.armed = nil
                state.cuts += 1
                return true
            }
            if lost {
                // Dropped: nothing more passes either way, and both ends close later.
                Thread.sleep(forTimeInterval: delay)
                Glibc.shutdown(source, CInt(SHUT_RDWR))
                Glibc.shutdown(target, CInt(SHUT_RDWR))
                break
            }
            var sent = 0
            while sent < count {
                let n = buffer.withUnsafeBytes {
                    send(target, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
                }
                guard n > 0 else { return }
                sent += n
            }
        }
        Glibc.shutdown(target, CInt(SHUT_WR))
    }

    /// Whether the client's first bytes are HTTP/2's preface (`PRI * HTTP/2.0`), looked
    /// at without taking them; the wait is bounded by a receive timeout.
    private static func opensHTTP2(_ client: CInt) -> Bool {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let preface = Array("PRI * HTTP/2.0".utf8)
        var first = [UInt8](repeating: 0, count: preface.count)
        let count = first.withUnsafeMutableBytes {
            recv(client, $0.baseAddress, $0.count, CInt(MSG_PEEK) | CInt(MSG_WAITALL))
        }
        timeout = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return count == preface.count && first == preface
    }

    /// Answers a connection that opened with HTTP/2's preface as an HTTP/1.1 server does,
    /// and closes it.
    private static func refuseHTTP2(_ client: CInt) {
        let answer = Array(
            "HTTP/1.1 505 HTTP Version Not Supported\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                .utf8)
        _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        Glibc.shutdown(client, CInt(SHUT_RDWR))
        Glibc.close(client)
    }

    private static func contains(_ bytes: ArraySlice<UInt8>, _ marker: [UInt8]) -> Bool {
        guard !marker.isEmpty, bytes.count >= marker.count else { return marker.isEmpty }
        var at = bytes.startIndex
        while at + marker.count <= bytes.endIndex {
            if bytes[at..<at + marker.count].elementsEqual(marker) { return true }
            at += 1
        }
        return false
    }
}
