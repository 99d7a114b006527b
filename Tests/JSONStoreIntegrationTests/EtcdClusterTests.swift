import Dispatch
import Glibc
import JSONStore
import JSONStoreEtcd
import TestSupport
import Testing

extension EtcdTests {
    /// A store on a three-member cluster: the member it talks to killed, it moves on.
    @Suite("A store on a three-member etcd cluster")
    struct Cluster {
        /// Runs `etcdctl arguments` until it succeeds (30 s at most).
        static func eventually(_ cluster: EtcdCluster, _ arguments: [String], endpoints: [String])
            async throws
        {
            let deadline = DispatchTime.now() + 30
            var last = ""
            while DispatchTime.now() < deadline {
                let result = try await blocking {
                    try cluster.etcdctl(arguments, endpoints: endpoints)
                }
                if result.status == 0 { return }
                last = result.output
            }
            Issue.record("etcdctl \(arguments) kept failing: \(last)")
        }

        @Test("the member the follower talks to killed: it fails over, nothing lost, no relist")
        func failover() async throws {
            let cluster = try await blocking { try EtcdCluster() }
            let store = try JSONStore(etcd: cluster.endpoints, prefix: "tasks", timeout: 2)
            let recorder = ChangeRecorder()
            let states = StateRecorder(store)
            let token = store.observe(on: DispatchQueue(label: "observer"), recorder.callback)
            defer { token.invalidate() }
            #expect(await recorder.wait { $0.initialCount == 1 })  // so "a" is an update
            try store.put("a", ["n": 1])
            #expect(await recorder.wait { $0.ids == ["a"] })
            // The first endpoint is the one the watch and the clients use first.
            await cluster.stop(cluster.members[0], signal: SIGKILL)
            let others = Array(cluster.endpoints.dropFirst())
            // If it was the leader, the two left elect another first: etcdctl waits 5 s at
            // most for that, so it is run again until the cluster takes the write.
            try await Self.eventually(cluster, ["put", "tasks/b", #"{"n":2}"#], endpoints: others)
            try store.put("c", ["n": 3])  // the library's own write moves on too
            #expect(await recorder.wait { $0.ids == ["a", "b", "c"] })
            try await Self.eventually(cluster, ["del", "tasks/a"], endpoints: others)
            #expect(await recorder.wait { $0.ids == ["b", "c"] })
            await store.synchronize()
            let state = recorder.current
            #expect(state.violations.isEmpty, "\(state.violations)")
            #expect(state.errors.isEmpty)
            #expect(await states.wait { $0.last == .live })
            #expect(!states.states.contains { "\($0)".contains("compacted") })
            // Every change is one update, none merged away and none repeated.
            #expect(
                state.updates.map { $0.inserted.map(\.id) + $0.deleted.map(\.id) } == [
                    ["a"], ["b"], ["c"], ["a"],
                ])
            // The killed member comes back and catches up; a store on it alone sees it all.
            try await blocking { try cluster.start(cluster.members[0]) }
            let alone = try JSONStore(etcd: [cluster.endpoints[0]], prefix: "tasks")
            #expect(try alone.load().items.map(\.id) == ["b", "c"])
        }
    }
}
