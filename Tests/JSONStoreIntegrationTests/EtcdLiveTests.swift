import Dispatch
import Foundation
import Glibc
@_spi(Testing) import JSONStore
import JSONStoreEtcd
import TestSupport
import Testing

extension EtcdTests {
    /// Live results of a store on etcd, driven by `etcdctl put/del/txn` and checked by the
    /// same change-set checker as the directory tests (`ChangeRecorder`).
    @Suite("Live results on etcd")
    struct Live {
        /// A store on a fresh etcd, observed from the start.
        final class Fixture: Sendable {
            let server: EtcdServer
            let store: JSONStore
            let recorder = ChangeRecorder()
            let states: StateRecorder
            let token: ObservationToken

            init() throws {
                server = try EtcdServer()
                store = try JSONStore(etcd: [server.endpoint], prefix: "tasks", timeout: 2)
                states = StateRecorder(store)
                token = store.observe(on: DispatchQueue(label: "observer"), recorder.callback)
            }

            deinit { token.invalidate() }

            func ctl(_ arguments: String...) async throws {
                let result = try await server.etcdctl(arguments)
                #expect(result.status == 0, "etcdctl \(arguments): \(result.output)")
            }

            /// Waits until the results hold exactly `ids`, in order.
            func waitFor(_ ids: [String], _ comment: Comment? = nil) async -> Bool {
                await recorder.wait { $0.initialCount == 1 && $0.ids == ids }
            }
        }

        @Test("etcdctl put, del and txn: inserts, modifications, deletions, one txn one update")
        func changes() async throws {
            let f = try await blocking { try Fixture() }
            try await f.ctl("put", "tasks/a", #"{"n":1}"#)
            #expect(await f.waitFor(["a"]))
            try await f.ctl("put", "tasks/b", #"{"n":2}"#)
            try await f.ctl("put", "tasks/a", #"{"n":10}"#)
            #expect(
                await f.recorder.wait {
                    $0.results.first?["n"]?.intValue == 10 && $0.ids == ["a", "b"]
                })
            try await f.ctl("del", "tasks/b")
            #expect(await f.waitFor(["a"]))
            let before = f.recorder.current.updates.count
            let txn = try await f.server.etcdctl(
                ["txn"], stdin: "\nput tasks/c {}\nput tasks/d {}\ndel tasks/a\n\n\n")
            #expect(txn.status == 0, "\(txn.output)")
            #expect(await f.waitFor(["c", "d"]))
            let state = f.recorder.current
            #expect(state.violations.isEmpty, "\(state.violations)")
            // The transaction: one update with both insertions and the deletion.
            #expect(state.updates.count == before + 1)
            let last = try #require(state.updates.last)
            #expect(last.inserted.map(\.id) == ["c", "d"] && last.deleted.map(\.id) == ["a"])
            try await f.ctl("put", "other/x", "{}")  // outside the prefix: nothing
            try f.store.put("e", ["n": 5])
            await f.store.synchronize()
            #expect(f.recorder.current.ids == ["c", "d", "e"])
            #expect(f.recorder.current.updates.count == before + 2)
        }

        /// What `decodeFailure` decodes the items as.
        struct Task: Decodable, Sendable {
            let title: String
            let priority: Int
        }

        @Test("a value that does not decode as the observed type: its key, line and column")
        func decodeFailure() async throws {
            let f = try await blocking { try Fixture() }
            // As jsonstore writes it: priority's value at line 3, column 15.
            try await f.ctl(
                "put", "tasks/a", "{\n  \"title\": \"A\",\n  \"priority\": \"high\"\n}\n")
            #expect(await f.waitFor(["a"]))
            var changes = f.store.changes(Task.self).makeAsyncIterator()
            guard case .initial(let results)? = await changes.next() else {
                Issue.record("no initial results")
                return
            }
            #expect(results.isEmpty)
            let error = try #require(results.error(for: "a"))
            #expect(error.code == .invalidItem && error.message.hasPrefix("at priority: "))
            #expect(error.file == "tasks/a" && error.id == "a", "\(error)")
            #expect(error.line == 3 && error.column == 15, "\(error)")
            // A value another client wrote, compact: located in the bytes the watch brought.
            try await f.ctl("put", "tasks/b", "{\"title\":\"B\",\n\"priority\":\"low\"}")
            guard case .update(let next, _)? = await changes.next() else {
                Issue.record("no update")
                return
            }
            let compact = try #require(next.error(for: "b"))
            #expect(compact.file == "tasks/b" && compact.line == 2 && compact.column == 12)
        }

        @Test("a bad value keeps the last valid one, with its error; a bad key is reported")
        func invalidValues() async throws {
            let f = try await blocking { try Fixture() }
            try await f.ctl("put", "tasks/a", #"{"title":"good"}"#)
            #expect(await f.waitFor(["a"]))
            try await f.ctl("put", "tasks/a", "{oops")
            #expect(await f.recorder.wait { $0.results.error(for: "a") != nil })
            let error = try #require(f.recorder.current.results.error(for: "a"))
            #expect(error.file == "tasks/a" && error.line == 1 && error.column == 2, "\(error)")
            #expect(f.recorder.current.results.first?["title"] == "good")
            try await f.ctl("put", "tasks/x/y", "{}")
            #expect(
                await f.recorder.wait {
                    $0.results.invalid.contains {
                        $0.name == "x/y" && $0.error.code == StoreError.Code.invalidID
                    }
                })
            try await f.ctl("put", "tasks/a", #"{"title":"fixed"}"#)
            #expect(
                await f.recorder.wait {
                    $0.results.error(for: "a") == nil && $0.results.first?["title"] == "fixed"
                })
            try await f.ctl("del", "tasks/x/y")
            #expect(await f.recorder.wait { $0.results.invalid.isEmpty })
            #expect(f.recorder.current.violations.isEmpty)
        }

        /// Killed, or stopped as an operator stops it (SIGTERM: etcd closes its gRPC
        /// connections with GOAWAY).
        @Test(
            "etcd killed or stopped, started again: resyncing, then resumed with nothing relisted",
            arguments: [SIGKILL, SIGTERM])
        func restart(signal: Int32) async throws {
            let f = try await blocking { try Fixture() }
            try await f.ctl("put", "tasks/a", "{}")
            #expect(await f.waitFor(["a"]))
            await f.server.stop(signal: signal)
            #expect(await f.states.wait { $0.last?.name == "resyncing" })
            #expect(throws: StoreError.self) { try f.store.put("lost", [:]) }
            try await blocking { try f.server.start() }
            #expect(await f.states.wait { $0.last == .live })
            try await f.ctl("put", "tasks/b", "{}")
            #expect(await f.waitFor(["a", "b"]))
            let states = f.states.states
            #expect(
                states.contains { "\($0)".contains("etcd connection lost") }, "\(states)")
            #expect(!states.contains { "\($0)".contains("compacted") }, "\(states)")
            let state = f.recorder.current
            #expect(state.violations.isEmpty && state.updates.count == 2, "\(state.updates)")
        }

        @Test("changes compacted away behind the follower: one relist, exactly the changes")
        func compaction() async throws {
            let f = try await blocking { try Fixture() }
            for id in ["a", "b", "c"] { try await f.ctl("put", "tasks/\(id)", #"{"v":0}"#) }
            #expect(await f.waitFor(["a", "b", "c"]))
            let before = f.recorder.current.updates.count
            f.store.setWatcherSuspended(true)
            try await f.ctl("put", "tasks/a", #"{"v":1}"#)
            try await f.ctl("put", "tasks/a", #"{"v":2}"#)
            try await f.ctl("del", "tasks/b")
            try await f.ctl("put", "tasks/d", #"{"v":0}"#)
            try await f.ctl("put", "tasks/c", #"{"v":0}"#)  // the same value again: no change
            let revision = try await f.server.etcdctl(["put", "tasks/zz", "{}", "-w", "json"])
                .output
            let header = try #require(
                try JSONSerialization.jsonObject(with: Data(revision.utf8)) as? [String: Any])
            let at = try #require((header["header"] as? [String: Any])?["revision"] as? Int)
            try await f.ctl("del", "tasks/zz")
            try await f.ctl("compact", String(at))
            f.store.setWatcherSuspended(false)
            #expect(await f.waitFor(["a", "c", "d"]))
            let state = f.recorder.current
            #expect(state.violations.isEmpty, "\(state.violations)")
            #expect(state.updates.count == before + 1, "\(state.updates)")
            let update = try #require(state.updates.last)
            #expect(update.inserted.map(\.id) == ["d"] && update.deleted.map(\.id) == ["b"])
            #expect(update.modified.map(\.new.id) == ["a"])
            #expect(
                f.states.states.contains { "\($0)".contains("compacted") }, "\(f.states.states)")
        }

        @Test("LiveResults on etcd, on the main actor")
        @MainActor
        func liveResults() async throws {
            let server = try await blocking { try EtcdServer() }
            let store = try JSONStore(etcd: [server.endpoint], prefix: "tasks")
            try store.put("a", ["v": 1])
            let live = LiveResults(store: store)
            defer { live.stop() }
            let recorder = ChangeRecorder()
            let token = store.observe(on: .main, recorder.callback)
            defer { token.invalidate() }
            #expect(await recorder.wait { $0.initialCount == 1 })
            await store.synchronize()
            #expect(live.isLoaded && live.results.map(\.id) == ["a"] && live.state == .live)
            try await server.etcdctl(["put", "tasks/b", #"{"v":2}"#])
            #expect(await recorder.wait { $0.ids == ["a", "b"] })
            await store.synchronize()
            #expect(live.results.map(\.id) == ["a", "b"])
            #expect(live.lastChange?.insertions == [1])
        }

        @Test("ids are bytes: the two spellings of café are two keys and two items")
        func twinIDs() async throws {
            let f = try await blocking { try Fixture() }
            try await f.ctl("put", "tasks/" + TwinIDs.composed, #"{"n":1}"#)
            try await f.ctl("put", "tasks/" + TwinIDs.decomposed, #"{"n":2}"#)
            #expect(await f.recorder.wait { $0.ids.count == 2 })
            let ids = f.recorder.current.ids
            #expect(
                Set(TwinIDs.bytes(ids))
                    == Set(TwinIDs.bytes([TwinIDs.composed, TwinIDs.decomposed])))
            #expect(try f.store.item(TwinIDs.composed)?["n"]?.intValue == 1)
            #expect(try f.store.item(TwinIDs.decomposed)?["n"]?.intValue == 2)
            try f.store.delete(TwinIDs.decomposed)
            await f.store.synchronize()
            #expect(TwinIDs.bytes(f.recorder.current.ids) == TwinIDs.bytes([TwinIDs.composed]))
        }

        @Test("typed results and the async sequence on etcd")
        func typed() async throws {
            struct Task: Codable, Sendable, Equatable { var title: String }
            let server = try await blocking { try EtcdServer() }
            let store = try JSONStore(etcd: [server.endpoint], prefix: "tasks")
            try store.put("one", ["title": "first"])
            var iterator = store.changes(Task.self).makeAsyncIterator()
            guard case .initial(let results)? = await iterator.next() else {
                Issue.record("no initial results")
                return
            }
            #expect(results.map(\.title) == ["first"])
            try await server.etcdctl(["put", "tasks/two", #"{"title":"second"}"#])
            guard case .update(let now, let changes)? = await iterator.next() else {
                Issue.record("no update")
                return
            }
            #expect(now.map(\.title) == ["first", "second"] && changes.insertions == [1])
        }
    }
}
