import Dispatch
import JSONStore
import JSONStoreEtcd
import TestSupport
import Testing

/// Observations that start from a revision: resumed with exactly the changes since, or
/// afresh (saying why) when the revision cannot be resumed from.
@Suite("Observing from a revision")
struct ResumeTests {
    /// The first change of an observation of `store` from `revision`.
    static func first(_ store: JSONStore, since revision: StoreRevision) async -> StoreChange<Item>?
    {
        var iterator = store.changes(since: revision).makeAsyncIterator()
        return await iterator.next()
    }

    /// Applies `changes` to the ids `old`, as a subscriber that kept them would.
    static func applied(_ changes: ChangeSet<Item>, to old: [String], results: Results<Item>)
        -> [String]
    {
        var ids = old
        for index in changes.deletions.reversed() { ids.remove(at: index) }
        for index in changes.insertions { ids.insert(results[index].id, at: index) }
        return ids
    }

    @Test("a directory, in the same process: the changes since a kept revision")
    func directory() async throws {
        let temp = try TemporaryStore.tasks()
        let recorder = ChangeRecorder()
        let token = temp.store.observe(on: DispatchQueue(label: "keeps"), recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        let kept = recorder.current.results
        try temp.store.put("new", ["title": "New"])
        try temp.store.delete("bike")
        try temp.store.put("tea", ["title": "Green tea"])
        await temp.store.synchronize()
        guard
            case .update(let results, let changes)? = await Self.first(
                temp.store, since: kept.revision)
        else {
            Issue.record("no update first")
            return
        }
        #expect(results.resumption == .resumed(from: kept.revision))
        #expect(Self.applied(changes, to: kept.map(\.id), results: results) == results.map(\.id))
        #expect(results.map(\.id) == ["new", "taxes", "tea"])
        #expect(changes.modified.map(\.new.id) == ["tea"])
        // Nothing since: an update with no changes, still first.
        guard case .update(_, let none)? = await Self.first(temp.store, since: results.revision)
        else {
            Issue.record("no update first")
            return
        }
        #expect(none.isEmpty)
        // Another follower's revision: afresh, and why.
        guard
            case .initial(let fresh)? = await Self.first(
                temp.store, since: StoreRevision("0badf00d:3"))
        else {
            Issue.record("no initial")
            return
        }
        guard case .reset(let reason)? = fresh.resumption else {
            Issue.record("no reset: \(String(describing: fresh.resumption))")
            return
        }
        #expect(reason.contains("another follower's"))
    }
}

extension EtcdTests {
    @Suite("Observing an etcd store from a revision")
    struct Resume {
        @Test("the store read at the revision, then the changes since; compacted: afresh")
        func etcd() async throws {
            let server = try await blocking { try EtcdServer() }
            let store = try JSONStore(etcd: [server.endpoint], prefix: "tasks")
            for id in ["a", "b", "c"] { try store.put(id, ["n": 0]) }
            var iterator = store.changes().makeAsyncIterator()
            guard case .initial(let kept)? = await iterator.next() else {
                Issue.record("no initial")
                return
            }
            #expect(Int(kept.revision.token) != nil)
            try await server.etcdctl(["put", "tasks/a", #"{"n":1}"#])
            try await server.etcdctl(["del", "tasks/b"])
            try await server.etcdctl(["put", "tasks/d", "{}"])
            // Another store value, as another process would open: etcd's revisions are
            // everyone's.
            let other = try JSONStore(etcd: [server.endpoint], prefix: "tasks")
            guard
                case .update(let results, let changes)? = await ResumeTests.first(
                    other, since: kept.revision)
            else {
                Issue.record("no update first")
                return
            }
            #expect(results.resumption == .resumed(from: kept.revision))
            #expect(
                ResumeTests.applied(changes, to: kept.map(\.id), results: results) == [
                    "a", "c", "d",
                ])
            #expect(results.map(\.id) == ["a", "c", "d"])
            #expect(changes.modified.map(\.new.id) == ["a"] && changes.deleted.map(\.id) == ["b"])
            let latest = try #require(Int(results.revision.token))
            try await server.etcdctl(["compact", String(latest)])
            let third = try JSONStore(etcd: [server.endpoint], prefix: "tasks")
            guard case .initial(let fresh)? = await ResumeTests.first(third, since: kept.revision)
            else {
                Issue.record("no initial after compaction")
                return
            }
            guard case .reset(let reason)? = fresh.resumption else {
                Issue.record("no reset: \(String(describing: fresh.resumption))")
                return
            }
            #expect(reason.contains("compacted"), "\(reason)")
            #expect(fresh.map(\.id) == ["a", "c", "d"])
        }
    }
}
