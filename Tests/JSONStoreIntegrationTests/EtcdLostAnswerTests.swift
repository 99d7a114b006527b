import Foundation
import JSONStore
import JSONStoreEtcd
import TestSupport
import Testing

extension EtcdTests {
    /// The writer's rule for a transaction whose answer was lost (`EtcdWriter`), and the
    /// follower's resumption after a lost connection, through a proxy that loses bytes on
    /// purpose in front of a real etcd.
    @Suite("Lost answers and lost connections")
    struct LostAnswers {
        /// The value of `key` and how many times it was written (etcd's `version`).
        static func counter(_ server: EtcdServer, _ key: String) throws -> (n: Int?, version: Int?)
        {
            let json = try server.etcdctl(["get", key, "-w", "json"]).output
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            guard let kv = (object?["kvs"] as? [[String: Any]])?.first,
                let value = (kv["value"] as? String).flatMap({ Data(base64Encoded: $0) }),
                let item = try JSONSerialization.jsonObject(with: value) as? [String: Any]
            else { return (nil, nil) }
            return (item["n"] as? Int, kv["version"] as? Int)
        }

        /// Increments `counter` (put at 1 first) in one batch through a proxy armed for
        /// `loss` as the first try's transaction (the one that writes 2) goes; returns how
        /// many times the batch ran and its error, if it failed.
        static func increment(
            _ server: EtcdServer, losing loss: CuttingProxy.Loss
        ) throws -> (runs: Int, cuts: Int, error: StoreError?) {
            let proxy = try CuttingProxy(to: server.clientPort)
            defer { proxy.stop() }
            let store = try JSONStore(etcd: [proxy.endpoint], prefix: "tasks")
            try store.put("counter", ["n": 1])
            var runs = 0
            do {
                try store.write { tx in
                    runs += 1
                    let n = try tx.item("counter")?["n"]?.intValue ?? 0
                    if runs == 1 { proxy.arm(loss, marker: Array(#""n": 2"#.utf8)) }
                    try tx.put("counter", ["n": .number(JSONNumber(n + 1))])
                }
            } catch let error as StoreError {
                return (runs, proxy.cuts, error)
            }
            return (runs, proxy.cuts, nil)
        }

        @Test("a read-modify-write whose answer was lost is never made again: applied once")
        func answerLost() async throws {
            try await blocking {
                let server = try EtcdServer()
                // etcd applies the transaction; its answer is lost.
                let (runs, cuts, error) = try Self.increment(server, losing: .answers)
                #expect(cuts == 1)
                #expect(runs == 1, "not made again: it may have been applied")
                #expect(
                    error?.message.contains("may or may not have been applied") == true,
                    "\(String(describing: error))")
                let counter = try Self.counter(server, "tasks/counter")
                #expect(counter.n == 2 && counter.version == 2, "\(counter)")
            }
        }

        @Test("a transaction lost before etcd saw it is fenced, then made again on what etcd holds")
        func requestLost() async throws {
            try await blocking {
                let server = try EtcdServer()
                // etcd never sees the transaction.
                let (runs, cuts, error) = try Self.increment(server, losing: .requests)
                #expect(cuts == 1 && error == nil, "\(String(describing: error))")
                #expect(runs == 2, "not applied: made again")
                // Written three times: created, fenced with its own bytes, incremented once.
                let counter = try Self.counter(server, "tasks/counter")
                #expect(counter.n == 2 && counter.version == 3, "\(counter)")
            }
        }

        @Test("a mirror that lost etcd resumes from its revision: no second reconcile")
        func mirrorResumes() async throws {
            try await blocking {
                let pair = try MirrorPair()
                let proxy = try CuttingProxy(to: pair.server.clientPort)
                defer { proxy.stop() }
                try FileManager.default.createDirectory(
                    atPath: pair.path("a"), withIntermediateDirectories: true)
                try pair.write("a", "tea.json", Mirror.task("tea"))
                try pair.start("a", via: proxy.endpoint)
                try pair.start("b")
                #expect(pair.converge { _ in pair.text("b", "tea.json") != nil })
                #expect(pair.wait { pair.log("a").contains("in sync with") })
                // b's next upload reaches a's watch as the bytes the proxy loses.
                proxy.arm(.events, marker: Array("from b".utf8))
                try pair.write("b", "bike.json", Mirror.task("bike", "from b"))
                #expect(
                    pair.converge { _ in pair.text("a", "bike.json")?.contains("from b") == true },
                    "a: \(pair.log("a"))")
                #expect(proxy.cuts == 1)
                let log = pair.log("a")
                #expect(log.contains("following etcd://\(proxy.endpoint)/tasks again"), "\(log)")
                #expect(log.components(separatedBy: "in sync with").count == 2, "\(log)")
                try pair.write("a", "tea.json", Mirror.task("tea", "after the resume"))
                #expect(
                    pair.converge { _ in
                        pair.text("b", "tea.json")?.contains("after the resume") == true
                    })
            }
        }
    }
}
