import Foundation
import Glibc
import JSONStore

/// A server on a free loopback port that answers every HTTP request with what a test
/// scripts: a broken or hostile etcd (a negative length, an endless header, a byte a
/// second, escape sequences). It reads each request's head and body, then plays its steps;
/// `stop` closes everything and waits for its threads.
public final class HostileServer: @unchecked Sendable {  // state under `lock`
    /// What the server does after reading a request.
    public enum Step: Sendable {
        /// Sends these bytes at once.
        case send([UInt8])
        /// Sends these bytes one at a time, `interval` seconds apart.
        case trickle([UInt8], interval: Double)
        /// Sends `byte` forever (until the client goes), in pieces of 64 KiB.
        case flood(UInt8)
        /// Keeps the connection open without sending anything, until `stop`.
        case hang
        /// Reads the client's HTTP/2 frames (after its preface, which the server took as
        /// a request) until one opens `stream` (HEADERS on it): so what follows answers a
        /// stream the client has begun.
        case awaitStream(UInt32)
        /// Closes the connection.
        case close
    }

    public let port: UInt16
    /// The listening socket (public for the test that checks it is closed once).
    public let listener: CInt
    private let steps: [Step]
    private let lock = Locked<(stopped: Bool, clients: [CInt], threads: Int)>((false, [], 0))
    /// How many requests it has read.
    public var requests: Int { served.withLock { $0 } }
    private let served = Locked(0)

    /// Starts listening on `127.0.0.1` at a free port.
    public init(_ steps: [Step]) throws {
        self.steps = steps
        let (listener, port) = try Loopback.listen()
        self.listener = listener
        self.port = port
        lock.withLock { $0.threads += 1 }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// `etcd://127.0.0.1:PORT/PREFIX`.
    public func address(_ prefix: String = "p") -> String { "etcd://127.0.0.1:\(port)/\(prefix)" }

    /// Closes the listener and every connection, and waits for the threads to end. Once:
    /// a test's own `stop` and then `deinit`'s must not close the listener twice, for the
    /// second would close whatever another test opened since under the same number.
    public func stop() {
        // The connections are shut down under the lock, which `serve` holds to close its
        // own: so none of them is a number already closed and given to another test.
        let first = lock.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            for client in state.clients { Glibc.shutdown(client, CInt(SHUT_RDWR)) }
            return true
        }
        guard first else { return }
        Glibc.shutdown(listener, CInt(SHUT_RDWR))
        while lock.withLock({ $0.threads }) > 0 { usleep(1_000) }
        Glibc.close(listener)
    }

    deinit { stop() }

    private var isStopped: Bool { lock.withLock { $0.stopped } }

    private func acceptLoop() {
        defer { lock.withLock { $0.threads -= 1 } }
        while !isStopped {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let accepted = lock.withLock {
                guard !$0.stopped else { return false }
                $0.clients.append(client)
                $0.threads += 1
                return true
            }
            guard accepted else {
                Glibc.close(client)
                return
            }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: CInt) {
        defer {
            lock.withLock {
                $0.clients.removeAll { $0 == client }
                $0.threads -= 1
                Glibc.close(client)
            }
        }
        var received: [UInt8] = []
        while !isStopped {
            guard readRequest(client, &received) else { return }
            served.withLock { $0 += 1 }
            for step in steps {
                guard play(step, on: client, &received) else { return }
            }
        }
    }

    /// Reads one request's head and its `Content-Length` body from `client`.
    private func readRequest(_ client: CInt, _ received: inout [UInt8]) -> Bool {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let range = received.firstRange(of: end) {
                let head = String(decoding: received[..<range.lowerBound], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first {
                        $0.lowercased().hasPrefix("content-length:")
                    }.flatMap {
                        Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
                    }
                    ?? 0
                if received.count >= range.upperBound + length {
                    received.removeFirst(range.upperBound + length)
                    return true
                }
            }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = recv(client, &chunk, chunk.count, 0)
            guard count > 0 else { return false }
            received += chunk[..<count]
        }
    }

    private func play(_ step: Step, on client: CInt, _ received: inout [UInt8]) -> Bool {
        switch step {
        case .awaitStream(let stream):
            return awaitStream(stream, from: client, &received)
        case .close:
            return false
        case .send(let bytes):
            return write(bytes, to: client)
        case .trickle(let bytes, let interval):
            for byte in bytes {
                guard !isStopped, write([byte], to: client) else { return false }
                usleep(UInt32(interval * 1_000_000))
            }
            return true
        case .flood(let byte):
            let piece = [UInt8](repeating: byte, count: 64 << 10)
            while !isStopped {
                guard write(piece, to: client) else { return false }
            }
            return false
        case .hang:
            while !isStopped { usleep(10_000) }
            return false
        }
    }

    /// Reads frames from `client` until HEADERS on `stream` came; what is read past it
    /// stays in `received`.
    private func awaitStream(_ stream: UInt32, from client: CInt, _ received: inout [UInt8])
        -> Bool
    {
        let rest = Array("SM\r\n\r\n".utf8)  // the preface's end, past its "request"
        if received.starts(with: rest) { received.removeFirst(rest.count) }
        while true {
            while received.count >= 9 {
                let length = Int(received[0]) << 16 | Int(received[1]) << 8 | Int(received[2])
                guard received.count >= 9 + length else { break }
                let on = received[5...8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
                let type = received[3]
                received.removeFirst(9 + length)
                if type == 1 && on == stream { return true }
            }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = recv(client, &chunk, chunk.count, 0)
            guard count > 0 else { return false }
            received += chunk[..<count]
        }
    }

    private func write(_ bytes: [UInt8], to client: CInt) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
