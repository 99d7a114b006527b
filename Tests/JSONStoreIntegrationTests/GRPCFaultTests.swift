import Foundation
import TestSupport
import Testing

@testable import JSONStoreEtcd

/// A gRPC connection against a scripted HTTP/2 server (`HostileServer`, which reads the
/// client's preface as a request and then plays its steps): what a busy, early or broken
/// server does to a call.
@Suite("gRPC calls against a scripted HTTP/2 server")
struct GRPCFaultTests {
    func connect(_ server: HostileServer) throws -> GRPCConnection {
        try GRPCConnection.connect(host: "127.0.0.1", port: server.port)
    }

    static let settings = HTTP2Frame.settings([]).encoded

    @Test("a server that keeps the connection busy: the call ends at its deadline")
    func busy() throws {
        // Frames of a kind no one knows, which ask for no answer: a byte every 5 ms.
        let frames = (0..<400).flatMap { _ in HTTP2Frame.unknown(type: 0xFA).encoded }
        let server = try HostileServer([.send(Self.settings), .trickle(frames, interval: 0.005)])
        defer { server.stop() }
        let connection = try connect(server)
        defer { connection.close() }
        let start = Date()
        #expect {
            _ = try connection.call("/etcdserverpb.KV/Range", [], until: Deadline(seconds: 1))
        } throws: { error in
            (error as? EtcdError)?.kind == .timedOut
        }
        // 3,600 bytes a byte every 5 ms would take 18 s: the deadline, not the server, ended it.
        #expect(Date().timeIntervalSince(start) < 6)
    }

    @Test("an answer before the request is all sent is the answer, the rest not sent")
    func early() throws {
        let trailers = HPACKEncoder.encode([
            .init(":status", "200"), .init("content-type", "application/grpc"),
            .init("grpc-status", "8"), .init("grpc-message", "request too large"),
        ])
        let answer = HTTP2Frame.headers(
            stream: 1, fragment: trailers, endStream: true, endHeaders: true)
        let server = try HostileServer([.send(Self.settings + answer.encoded), .hang])
        defer { server.stop() }
        let connection = try connect(server)
        defer { connection.close() }
        // More than the 65,535 bytes a stream may send before the server grants room.
        let request = [UInt8](repeating: 0x61, count: 100_000)
        #expect {
            _ = try connection.call("/etcdserverpb.KV/Put", request, until: Deadline(seconds: 5))
        } throws: { error in
            "\(error)".contains("RESOURCE_EXHAUSTED: request too large")
        }
        // A status leaves the connection open for the next call.
        #expect(connection.failure == nil)
    }

    @Test("a malformed frame gives the connection up: later calls are refused at once")
    func broken() throws {
        // DATA on stream 0: a connection error (PROTOCOL_ERROR).
        let server = try HostileServer([
            .send(Self.settings + [0, 0, 1, 0, 0, 0, 0, 0, 0, 0x61]), .hang,
        ])
        defer { server.stop() }
        let connection = try connect(server)
        defer { connection.close() }
        #expect {
            _ = try connection.call("/etcdserverpb.KV/Range", [], until: Deadline(seconds: 5))
        } throws: { error in
            "\(error)".contains("PROTOCOL_ERROR")
        }
        let start = Date()
        #expect(throws: EtcdError.self) {
            _ = try connection.call("/etcdserverpb.KV/Range", [], until: Deadline(seconds: 5))
        }
        #expect(connection.failure != nil && Date().timeIntervalSince(start) < 1)
    }

    @Test("two messages in an answer of one are refused, not held")
    func twoMessages() throws {
        let headers = HPACKEncoder.encode([
            .init(":status", "200"), .init("content-type", "application/grpc"),
        ])
        let body = GRPCMessages.frame([1]) + GRPCMessages.frame([2])
        let frames =
            HTTP2Frame.headers(stream: 1, fragment: headers, endStream: false, endHeaders: true)
            .encoded + HTTP2Frame.data(stream: 1, data: body, endStream: false).encoded
        let server = try HostileServer([.send(Self.settings + frames), .hang])
        defer { server.stop() }
        let connection = try connect(server)
        defer { connection.close() }
        #expect {
            _ = try connection.call("/etcdserverpb.KV/Range", [], until: Deadline(seconds: 5))
        } throws: { error in
            "\(error)".contains("more than one message")
        }
    }
}
