import Dispatch
import Foundation
import JSONStore
import TestSupport
import Testing

@testable import JSONStoreEtcd

extension EtcdTests {
    /// Many gRPC calls at once on one HTTP/2 connection to a real etcd: calls from several
    /// threads, and a watch that goes on beside them.
    @Suite("gRPC streams side by side on one connection")
    struct GRPCStreams {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

        func put(_ connection: GRPCConnection, _ key: String, _ value: String) throws -> Int64 {
            try EtcdRPC.PutResponse(
                decoding: connection.call(
                    "/etcdserverpb.KV/Put",
                    EtcdRPC.PutRequest(key: bytes(key), value: bytes(value)).encoded,
                    until: Deadline(seconds: 10))
            ).header.revision
        }

        /// A connection to the etcd at `port`, a put of another key, and a watch of `w/` from
        /// the revision after it, on that connection.
        func watching(_ port: UInt16) throws -> (GRPCConnection, Int64, GRPCWatch) {
            let hold = GRPCHold(try GRPCConnection.connect(host: "127.0.0.1", port: port))
            let start = try put(hold.connection, "other", "x")
            let watch = try GRPCWatch(
                on: hold, key: bytes("w/"), rangeEnd: bytes("w0"), from: start + 1)
            return (hold.connection, start, watch)
        }

        @Test("calls from eight threads at once: each answered with its own answer")
        func concurrent() async throws {
            let server = try await blocking { try EtcdServer() }
            let port = server.clientPort
            let failures = try await blocking {
                let connection = try GRPCConnection.connect(host: "127.0.0.1", port: port)
                defer { connection.close() }
                let failures = Locked<[String]>([])
                DispatchQueue.concurrentPerform(iterations: 8) { thread in
                    for round in 0..<25 {
                        let key = "many/\(thread)-\(round)"
                        do {
                            _ = try put(connection, key, "\(thread * 100 + round)")
                            let read = try EtcdRPC.RangeResponse(
                                decoding: connection.call(
                                    "/etcdserverpb.KV/Range",
                                    EtcdRPC.RangeRequest(key: bytes(key)).encoded,
                                    until: Deadline(seconds: 10)))
                            if read.keyValues.map(\.value) != [bytes("\(thread * 100 + round)")] {
                                failures.withLock { $0.append("\(key): \(read.keyValues)") }
                            }
                        } catch {
                            failures.withLock { $0.append("\(key): \(error)") }
                        }
                    }
                }
                return failures.withLock { $0 }
            }
            #expect(failures.isEmpty)
            let keys = try await server.etcdctl(["get", "many/", "--prefix", "--keys-only"])
            #expect(keys.output.split(separator: "\n").count == 200)
        }

        @Test("a watch beside puts on its connection: every event in order, progress, cancel")
        func watch() async throws {
            let server = try await blocking { try EtcdServer() }
            let port = server.clientPort
            try await blocking {
                let (connection, start, watch) = try watching(port)
                // Puts from four threads on the watch's own connection, and one by etcdctl.
                DispatchQueue.concurrentPerform(iterations: 4) { thread in
                    for round in 0..<10 { _ = try? put(connection, "w/\(thread)-\(round)", "v") }
                }
                try server.etcdctl(["put", "w/etcdctl", "v"])
                var seen: [EtcdWatch.Event] = []
                while seen.count < 41 {
                    let answer = try watch.next(until: Deadline(seconds: 10))
                    seen += answer.events
                }
                #expect(seen.count == 41)
                #expect(
                    Set(seen.map { String(decoding: $0.keyValue.key, as: UTF8.self) }).count == 41)
                let revisions = seen.map(\.keyValue.modRevision)
                #expect(revisions == revisions.sorted() && Set(revisions).count == 41)
                #expect(revisions.first == start + 1)
                // Asked for, progress comes with the revision of every event sent.
                try watch.requestProgress(until: Deadline(seconds: 10))
                var progress: EtcdWatch.Response
                repeat {
                    progress = try watch.next(until: Deadline(seconds: 10))
                } while !progress.isProgress
                #expect(progress.revision == revisions.last)
                watch.close()
                // Its stream ended alone: the connection goes on.
                #expect(try put(connection, "after", "y") == progress.revision + 1)
                #expect(connection.failure == nil)
            }
        }

        @Test(
            "the waiting watch reads the connection: a call beside it is answered, an interrupt wakes it"
        )
        func waiterReads() async throws {
            let server = try await blocking { try EtcdServer() }
            let port = server.clientPort
            try await blocking {
                let (connection, start, watch) = try watching(port)
                let ended = Locked<(error: EtcdError?, seconds: Double)?>(nil)
                let began = Date()
                Thread.detachNewThread {
                    let outcome: EtcdError?
                    do throws(EtcdError) {
                        _ = try watch.next(until: Deadline(seconds: 60))
                        outcome = nil
                    } catch {
                        outcome = error
                    }
                    ended.withLock { $0 = (outcome, Date().timeIntervalSince(began)) }
                }
                // The watch's thread waits, and with no one else reading, reads.
                let reading = Date().addingTimeInterval(10)
                while !connection.shared.withLock({ $0.reading }), Date() < reading {
                    usleep(1_000)
                }
                #expect(connection.shared.withLock { $0.reading })
                // A call beside it: its answer read by the watch's thread, handed over.
                #expect(try put(connection, "beside", "y") == start + 1)
                watch.interrupt()
                let deadline = Date().addingTimeInterval(10)
                while ended.withLock({ $0 == nil }), Date() < deadline { usleep(1_000) }
                let outcome = ended.withLock { $0 }
                let said = outcome?.error.map { "\($0)" } ?? "none"
                #expect(said.contains("interrupted"))
                // Woken, not ended by its 60 s deadline or the 10 s keep-alive's PING.
                #expect((outcome?.seconds ?? 60) < 5)
                #expect(connection.failure == nil)
            }
        }

        @Test("etcd stopped: the watch and calls end with an error, later calls refused")
        func stopped() async throws {
            let server = try await blocking { try EtcdServer() }
            let port = server.clientPort
            let hold = try await blocking {
                GRPCHold(try GRPCConnection.connect(host: "127.0.0.1", port: port))
            }
            let connection = hold.connection
            let watch = try await blocking {
                try GRPCWatch(on: hold, key: bytes("w/"), rangeEnd: bytes("w0"), from: 1)
            }
            // The watch read on a thread of its own, not the cooperative pool's.
            async let ended = blocking { () -> EtcdError? in
                do throws(EtcdError) {
                    while true { _ = try watch.next(until: Deadline(seconds: 30)) }
                } catch {
                    return error
                }
            }
            let began = Date()
            await server.stop()
            let error = try await ended
            #expect(error != nil && error?.kind != .timedOut)
            #expect(Date().timeIntervalSince(began) < 15)
            let refused = try await blocking { (try? put(connection, "after", "y")) == nil }
            #expect(refused)
            try await server.start()
            // A new connection to the etcd started again.
            let again = try await blocking {
                try GRPCConnection.connect(host: "127.0.0.1", port: port)
            }
            defer { again.close() }
            #expect(try await blocking { try put(again, "after", "y") } > 1)
        }
    }
}
