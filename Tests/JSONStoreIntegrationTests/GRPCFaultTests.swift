import Foundation
import JSONStore
import TestSupport
import Testing

@testable import JSONStoreEtcd

/// A gRPC connection against a scripted HTTP/2 server (`HostileServer`, which reads the
/// client's preface as a request and then plays its steps): what a busy, early or broken
/// server does to a call.
@Suite("gRPC calls against a scripted HTTP/2 server")
struct GRPCFaultTests {
    /// Makes one call to a server playing `steps`, then calls `check` with the call's error
    /// (`nil`: it succeeded) and the connection, both stopped afterwards.
    func call(
        _ steps: [HostileServer.Step], request: [UInt8] = [], seconds: Double = 5,
        _ check: (EtcdError?, GRPCConnection) throws -> Void
    ) throws {
        let server = try HostileServer(steps)
        defer { server.stop() }
        let connection = try GRPCConnection.connect(host: "127.0.0.1", port: server.port)
        defer { connection.close() }
        let failure: EtcdError?
        do {
            _ = try connection.call(
                "/etcdserverpb.KV/Range", request, until: Deadline(seconds: seconds))
            failure = nil
        } catch {
            failure = error
        }
        try check(failure, connection)
    }

    /// A header block of `fields`, answering `stream`.
    static func headers(_ fields: [HPACK.Field], endStream: Bool, stream: UInt32 = 1) -> [UInt8] {
        HTTP2Frame.headers(
            stream: stream, fragment: HPACKEncoder.encode(fields), endStream: endStream,
            endHeaders: true
        ).encoded
    }

    static let answering: [HPACK.Field] = [
        .init(":status", "200"), .init("content-type", "application/grpc"),
    ]

    static let settings = HTTP2Frame.settings([]).encoded

    @Test("a server that keeps the connection busy: the call ends at its deadline")
    func busy() throws {
        // Frames of a kind no one knows, which ask for no answer: a byte every 5 ms.
        let frames = (0..<400).flatMap { _ in HTTP2Frame.unknown(type: 0xFA).encoded }
        let start = Date()
        try call([.send(Self.settings), .trickle(frames, interval: 0.005)], seconds: 1) {
            error, _ in
            #expect(error?.kind == .timedOut)
        }
        // 3,600 bytes a byte every 5 ms would take 18 s: the deadline, not the server, ended it.
        #expect(Date().timeIntervalSince(start) < 6)
    }

    @Test("an answer before the request is all sent is the answer, the rest not sent")
    func early() throws {
        let trailers = Self.headers(
            Self.answering + [
                .init("grpc-status", "8"), .init("grpc-message", "request too large"),
            ],
            endStream: true)
        // More than the 65,535 bytes a stream may send before the server grants room.
        let request = [UInt8](repeating: 0x61, count: 100_000)
        try call([.send(Self.settings), .awaitStream(1), .send(trailers), .hang], request: request)
        { error, connection in
            #expect(
                "\(error.map { "\($0)" } ?? "")".contains("RESOURCE_EXHAUSTED: request too large"))
            // A status leaves the connection open for the next call.
            #expect(connection.failure == nil)
        }
    }

    @Test("a malformed frame gives the connection up: later calls are refused at once")
    func broken() throws {
        // DATA on stream 0: a connection error (PROTOCOL_ERROR).
        let broken: [UInt8] = [0, 0, 1, 0, 0, 0, 0, 0, 0, 0x61]
        try call([.send(Self.settings), .awaitStream(1), .send(broken), .hang]) {
            error, connection in
            #expect("\(error.map { "\($0)" } ?? "")".contains("PROTOCOL_ERROR"))
            let start = Date()
            #expect(throws: EtcdError.self) {
                _ = try connection.call("/etcdserverpb.KV/Range", [], until: Deadline(seconds: 5))
            }
            #expect(connection.failure != nil && Date().timeIntervalSince(start) < 1)
        }
    }

    @Test("two messages in an answer of one are refused, not held")
    func twoMessages() throws {
        let body = GRPCMessages.frame([1]) + GRPCMessages.frame([2])
        let frames =
            Self.headers(Self.answering, endStream: false)
            + HTTP2Frame.data(stream: 1, data: body, endStream: false).encoded
        try call([.send(Self.settings), .awaitStream(1), .send(frames), .hang]) { error, _ in
            #expect("\(error.map { "\($0)" } ?? "")".contains("more than one message"))
        }
    }

    @Test("a stream reset ends that call alone: the next call on the connection is answered")
    func reset() throws {
        let answer =
            Self.headers(Self.answering, endStream: false, stream: 3)
            + HTTP2Frame.data(stream: 3, data: GRPCMessages.frame([7]), endStream: false).encoded
            + Self.headers([.init("grpc-status", "0")], endStream: true, stream: 3)
        let steps: [HostileServer.Step] = [
            .send(Self.settings), .awaitStream(1),
            .send(HTTP2Frame.resetStream(stream: 1, code: .refusedStream).encoded),
            .awaitStream(3), .send(answer), .hang,
        ]
        try call(steps) { error, connection in
            #expect("\(error.map { "\($0)" } ?? "")".contains("reset the call (REFUSED_STREAM)"))
            let next = try connection.call(
                "/etcdserverpb.KV/Range", [], until: Deadline(seconds: 5))
            #expect(next == [7] && connection.failure == nil)
        }
    }

    @Test("GOAWAY: the call it did not take says so, and no call starts after it")
    func goAway() throws {
        let away = HTTP2Frame.goAway(lastStream: 0, code: .noError, debug: []).encoded
        try call([.send(Self.settings), .awaitStream(1), .send(away), .hang]) {
            error, connection in
            #expect("\(error.map { "\($0)" } ?? "")".contains("the call was not taken"))
            #expect(throws: EtcdError.self) {
                _ = try connection.call("/etcdserverpb.KV/Range", [], until: Deadline(seconds: 5))
            }
        }
    }

    @Test("the connection cut mid-frame: the call ends at once with why, not at its deadline")
    func cut() throws {
        let start = Date()
        // Half of a DATA frame's header, then the socket closed.
        try call(
            [.send(Self.settings), .awaitStream(1), .send([0, 0, 9, 0]), .close], seconds: 20
        ) {
            error, connection in
            // Closed, or reset (the client's bytes unread when it closed): not a timeout.
            #expect(error != nil && error?.kind != .timedOut)
            #expect(connection.failure != nil)
        }
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test("a server silent past the keep-alive: a PING asks, and unanswered ends it")
    func silent() throws {
        let server = try HostileServer([.send(Self.settings), .hang])
        defer { server.stop() }
        let connection = try GRPCConnection.connect(
            host: "127.0.0.1", port: server.port, keepAlive: 0.2)
        defer { connection.close() }
        let start = Date()
        #expect(throws: EtcdError.self) {
            _ = try connection.call("/etcdserverpb.KV/Range", [], until: Deadline(seconds: 20))
        }
        #expect("\(connection.failure.map { "\($0)" } ?? "")".contains("no answer to a PING"))
        #expect(Date().timeIntervalSince(start) < 10)
    }

    // A watch is interrupted (shut down) from another thread while its owner may be closing
    // it. Under ThreadSanitizer (CI), a shutdown that read the descriptor while `close`
    // changed it is reported; here, every socket ends closed, and later sends fail.
    @Test("a socket shut down from another thread while its owner closes it: closed once")
    func shutdownBesideClose() throws {
        let server = try HostileServer([.hang])
        defer { server.stop() }
        for _ in 0..<50 {
            // Shared with the thread on purpose: that is what the socket must bear.
            nonisolated(unsafe) let socket = try TCPSocket(
                host: "127.0.0.1", port: server.port, until: Deadline(seconds: 5))
            let (started, done) = (Locked(false), Locked(false))
            let interrupter = Thread {
                started.withLock { $0 = true }
                while !done.withLock({ $0 }) { socket.shutdown() }
            }
            interrupter.start()
            while !started.withLock({ $0 }) { sched_yield() }
            socket.close()
            socket.close()
            done.withLock { $0 = true }
            #expect(socket.descriptor == -1)
            #expect(throws: EtcdError.self) { try socket.send([1], until: Deadline(seconds: 1)) }
        }
    }
}
