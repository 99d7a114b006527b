import Foundation
import JSONStore
import JSONStoreEtcd
import TestSupport
import Testing

extension EtcdTests {
    /// `history`, `item(_:at:)`, `undo` and the command's `log`, `show --at`, `diff` and
    /// `undo` on a store on etcd: etcd's own revisions of each key, written by the library
    /// and by `etcdctl`, up to where etcd compacted.
    @Suite("History on etcd: its revisions")
    struct History {
        static func open(_ server: EtcdServer) throws -> JSONStore {
            try JSONStore(etcd: [server.endpoint], prefix: "tasks")
        }

        @Test("each change of a key is an entry: by the library and by etcdctl, undone")
        func changesAndUndo() async throws {
            let server = try await blocking { try EtcdServer() }
            let store = try Self.open(server)
            try store.put("tea", ["title": "Make tea", "status": "open"])
            try await server.etcdctl(
                ["put", "tasks/tea", #"{"title":"Make tea","status":"done"}"#])
            try store.put("bread", ["title": "Buy bread"])
            try await server.etcdctl(["put", "other/key", "not the store's"])
            let tea = try store.history(of: "tea")
            #expect(tea.map(\.kind) == [.modified, .created])
            #expect(tea[0].changes == [MemberChange(path: "/status", old: "open", new: "done")])
            #expect(tea[0].source == .etcd && tea[0].time == nil)
            #expect(tea[0].operation == String(tea[0].revision))
            #expect(tea[1].value == ["title": "Make tea", "status": "open"])
            // The whole store, newest first; a key outside the prefix is not in it.
            let all = try store.history()
            #expect(all.map(\.id) == ["bread", "tea", "tea"])
            #expect(try store.history(limit: 1).map(\.id) == ["bread"])
            #expect(try store.history(after: tea[0].revision).map(\.id) == ["bread"])
            // A version read at its revision; etcd's revisions begin at 1 (it reads 0 as now).
            #expect(try store.item("tea", at: tea[1].revision) == tea[1].value)
            #expect {
                try store.item("tea", at: 0)
            } throws: { error in
                (error as? StoreError)?.code == .notFound
            }
            #expect(try store.item("bread", at: tea[1].revision) == nil)
            // etcdctl's edit undone through etcd, as a write of its own.
            try store.undo("tea")
            #expect(try store.item("tea")?["status"] == "open")
            let undone = try #require(try store.history(of: "tea").first)
            #expect(undone.revision > all[0].revision && undone.kind == .modified)
            // A member the change touched changed since: refused, nothing written.
            try await server.etcdctl(
                ["put", "tasks/tea", #"{"title":"Make tea","status":"later"}"#])
            #expect {
                try store.undo("tea", revision: tea[0].revision)
            } throws: { error in
                let error = error as? StoreError
                return error?.code == .changed
                    && error?.message == "not undone: /status changed since \(tea[0].revision)"
            }
            #expect(try store.item("tea")?["status"] == "later")
        }

        @Test("a deleted key's lives, a transaction undone as one, and compaction")
        func livesOperationsCompaction() async throws {
            let server = try await blocking { try EtcdServer() }
            let store = try Self.open(server)
            try store.put("a", ["n": 1])
            try store.put("b", ["n": 2])
            try store.write { tx in
                try tx.delete("a")
                try tx.delete("b")
            }
            // Deleted now: its history has no value to end at, and is read to its end.
            let a = try store.history(of: "a")
            #expect(a.map(\.kind) == [.deleted, .created])
            #expect(a[0].value == ["n": 1])
            #expect(try store.history(of: "never").isEmpty)
            // The delete of both was one transaction: one operation, undone as one.
            let operation = try #require(a[0].operation)
            #expect(try store.history().prefix(2).map(\.operation) == [operation, operation])
            try await server.etcdctl(["put", "tasks/b", #"{"n":3}"#])
            #expect {
                try store.undo(operation: operation)
            } throws: { error in
                (error as? StoreError)?.code == .changed
            }
            #expect(try store.item("a") == nil)
            try await server.etcdctl(["del", "tasks/b"])
            try store.undo(operation: operation)
            #expect(try store.item("a")?["n"] == 1)
            #expect(try store.item("b")?["n"] == 2)
            // A new life of "b" after its earlier ones, all in its history.
            #expect(
                try store.history(of: "b").map(\.kind) == [
                    .created, .deleted, .created, .deleted, .created,
                ])
            // etcd compacts: what was before is gone, and said to be.
            let keep = try #require(try store.history(of: "b").first).revision
            try await server.etcdctl(["compact", String(keep)])
            // The change made at the compaction's revision is kept (etcd replays from it).
            #expect(try store.historyBegins() == keep)
            #expect(try store.history(of: "b").map(\.kind) == [.created])
            #expect(try store.item("b", at: keep)?["n"] == 2)
            #expect {
                try store.item("b", at: 2)
            } throws: { error in
                let error = error as? StoreError
                return error?.code == .notFound
                    && error?.message.contains("compacted at \(keep)") == true
            }
            try store.put("b", ["n": 4])
            #expect(try store.history(of: "b").map(\.kind) == [.modified, .created])
            #expect(throws: StoreError.self) { try store.undo(operation: operation) }
        }

        @Test("the command: log, show --at, diff and undo; where history stops; no times")
        func command() async throws {
            let server = try await blocking { try EtcdServer() }
            let address = "etcd://\(server.endpoint)/tasks"
            let store = try Self.open(server)
            try store.put("tea", ["title": "Make tea", "status": "open"])
            try await server.etcdctl(
                ["put", "tasks/tea", #"{"title":"Make tea","status":"done"}"#])
            let revisions = try store.history(of: "tea").map(\.revision)
            func run(_ arguments: [String]) async throws -> JSONStoreBinary.Result {
                try await blocking { try JSONStoreBinary.run(["--store", address] + arguments) }
            }
            let log = try await run(["log", "tea"])
            #expect(log.status == 0, "\(log.stderr)")
            let rows = log.stdout.split(separator: "\n").map { $0.split(separator: " ") }
            #expect(rows.count == 3, "\(log.stdout)")
            #expect(
                rows.dropFirst().map { $0.prefix(5) } == [
                    ["\(revisions[0])", "-", "tea", "modified", "etcd"],
                    ["\(revisions[1])", "-", "tea", "created", "etcd"],
                ], "\(log.stdout)")
            #expect(log.stdout.contains("etcd    status: open → done\n"), "\(log.stdout)")
            let json = try await run(["log", "-o", "json"])
            let entries = try #require(try JSONReader().read(Array(json.stdout.utf8)).arrayValue)
            #expect(entries.count == 2 && entries.allSatisfy { $0["time"] == nil })
            #expect(entries.first?["source"] == "etcd")
            let shown = try await run(["show", "tea", "--at", "\(revisions[1])", "--json"])
            #expect(shown.status == 0 && shown.stdout.contains("\"open\""), "\(shown.stderr)")
            let diff = try await run(["diff", "tea"])
            #expect(diff.stdout == "status: open → done\n", "\(diff.stdout)")
            let since = try await run(["log", "--since", "2d"])
            #expect(since.status != 0 && since.stderr.contains("etcd keeps no times"))
            let undo = try await run(["undo", "tea"])
            #expect(undo.status == 0, "\(undo.stderr)")
            #expect(try store.item("tea")?["status"] == "open")
            let refused = try await run(["undo", "tea", "\(revisions[0])"])
            #expect(refused.status == 1, "\(refused.stdout)")
            #expect(refused.stderr.contains("/status changed since \(revisions[0])"))
            // Compacted: the table says where history stops.
            let newest = try #require(try store.history(of: "tea").first).revision
            try await server.etcdctl(["compact", String(newest - 1)])
            let stops = try await run(["log"])
            #expect(
                stops.stdout.hasSuffix(
                    "history stops here: etcd compacted at \(newest - 1) and keeps no older "
                        + "changes\n"), "\(stops.stdout)")
            // A list cut by -n does not say so; one that reaches the compaction does.
            let cut = try await run(["log", "--ops", "-n", "1"])
            #expect(cut.status == 0 && !cut.stdout.contains("history stops here"))
            let ops = try await run(["log", "--ops"])
            #expect(ops.stdout.contains("history stops here"), "\(ops.stdout)")
            let gone = try await run(["show", "tea", "--at", "\(revisions[1])"])
            #expect(gone.status != 0 && gone.stderr.contains("compacted at \(newest - 1)"))
        }
    }
}
