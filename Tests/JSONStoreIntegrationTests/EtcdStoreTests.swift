import Foundation
import JSONStore
import JSONStoreEtcd
import TestSupport
import Testing

extension EtcdTests {
    /// `JSONStore` opened on an etcd prefix: the directory's API, with etcd as the truth,
    /// checked also through `etcdctl` (a client nobody here wrote).
    @Suite("A store on etcd")
    struct Store {
        struct Todo: Codable, Equatable, Sendable, Identifiable {
            var id: String
            var title: String
            var done = false
        }

        static func open(_ server: EtcdServer, prefix: String = "tasks") throws -> JSONStore {
            try JSONStore(etcd: [server.endpoint], prefix: prefix)
        }

        @Test("put, item, update, delete and load; the value is what the file would hold")
        func basics() async throws {
            let server = try await blocking { try EtcdServer() }
            let store = try Self.open(server)
            try store.put(Todo(id: "tea", title: "Make tea"))
            try store.put("bread", ["title": "Buy bread", "tags": ["shop"]])
            #expect(try store.item("tea", as: Todo.self) == Todo(id: "tea", title: "Make tea"))
            try store.update("tea", as: Todo.self) { $0.done = true }
            #expect(try store.item("tea")?["done"] == true)
            // The bytes a file would hold: 2-space pretty, a newline at the end, no "id".
            let shown = try await server.etcdctl(["get", "tasks/tea", "--print-value-only"])
            #expect(shown.output == "{\n  \"title\": \"Make tea\",\n  \"done\": true\n}\n\n")
            #expect(try store.load().items.map(\.id) == ["bread", "tea"])
            #expect(try store.delete("bread"))
            #expect(try !store.delete("bread"))
            #expect(try store.item("bread") == nil)
            #expect(try store.load().items.map(\.id) == ["tea"])
            #expect(store.path == "etcd://\(server.endpoint)/tasks")
        }

        @Test("values other clients wrote: compact JSON read; a bad value or key reported")
        func foreignValues() async throws {
            let server = try await blocking { try EtcdServer() }
            let store = try Self.open(server)
            try await server.etcdctl(["put", "tasks/compact", #"{"title":"from etcdctl","n":1}"#])
            try await server.etcdctl(["put", "tasks/broken", "{\n  \"title\": \"x\",\n  oops\n}"])
            try await server.etcdctl(["put", "tasks/list", "[1, 2]"])
            try await server.etcdctl(["put", "tasks/a/b", "{}"])
            try await server.etcdctl(["put", "tasks/.hidden", "{}"])
            try await server.etcdctl(["put", "tasksX", "{}"])  // not under the prefix
            let contents = try store.load()
            #expect(contents.items.map(\.id) == ["compact"])
            #expect(contents.items.first?["title"] == "from etcdctl")
            let invalid = Dictionary(
                uniqueKeysWithValues: contents.invalid.map { ($0.name, $0.error) })
            #expect(invalid.count == 4)
            let broken = try #require(invalid["broken.json"])
            #expect(broken.code == .invalidJSON)
            #expect(broken.file == "tasks/broken" && broken.line == 3 && broken.column == 3)
            #expect(invalid["list.json"]?.message.contains("an array") == true)
            #expect(invalid["a/b"]?.code == .invalidID)
            #expect(invalid["a/b"]?.description.contains("tasks/a/b") == true)
            #expect(invalid[".hidden"]?.message.contains("cannot start with '.'") == true)
            #expect(throws: StoreError.self) { try store.item("broken") }
        }

        @Test("a batch is one transaction: one revision, all or nothing")
        func batches() async throws {
            let server = try await blocking { try EtcdServer() }
            let store = try Self.open(server)
            try store.put("old", ["n": 1])
            try store.write { tx in
                try tx.put("a", ["n": 1])
                try tx.put("b", ["n": 2])
                try tx.delete("old")
            }
            let json = try await server.etcdctl(["get", "tasks/", "--prefix", "-w", "json"]).output
            let revisions = try Self.modRevisions(json)
            #expect(revisions.count == 2 && Set(revisions).count == 1, "\(json)")
            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try store.write { tx in
                    try tx.put("c", ["n": 3])
                    throw Refused()
                }
            }
            #expect(try store.load().items.map(\.id) == ["a", "b"])
        }

        static func modRevisions(_ json: String) throws -> [Int] {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let kvs = object?["kvs"] as? [[String: Any]] ?? []
            return kvs.compactMap { $0["mod_revision"] as? Int }
        }

        @Test("update is compare-and-swap: 4 threads × 25 increments end at exactly 100")
        func contention() async throws {
            let server = try await blocking { try EtcdServer() }
            let store = try Self.open(server)
            try store.put("counter", ["n": 0])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await blocking {
                            // Each writer a store value of its own, as another process would be.
                            let mine = try Self.open(server)
                            for _ in 0..<25 {
                                try mine.update("counter") {
                                    $0["n"] = .number(JSONNumber(($0["n"]?.intValue ?? 0) + 1))
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try store.item("counter")?["n"]?.intValue == 100)
        }

        @Test("8 writers × 40 updates of one key: each waits its turn, none gives up")
        func heavyContention() async throws {
            let server = try await blocking { try EtcdServer() }
            let store = try Self.open(server)
            try store.put("counter", ["n": 0])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await blocking {
                            let mine = try Self.open(server)
                            for _ in 0..<40 {
                                try mine.update("counter") {
                                    $0["n"] = .number(JSONNumber(($0["n"]?.intValue ?? 0) + 1))
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try store.item("counter")?["n"]?.intValue == 320)
        }

        @Test("8 processes running set on one key: every set succeeds")
        func contendingProcesses() async throws {
            let server = try await blocking { try EtcdServer() }
            let address = "etcd://\(server.endpoint)/tasks"
            let result = try await blocking {
                try JSONStoreBinary.shell(
                    """
                    for w in 1 2 3 4 5 6 7 8; do
                      ( for i in $(seq 1 15); do
                          "$JSONSTORE" --store '\(address)' set tea "w$w:=$i" || echo "failed: $w $i"
                        done ) &
                    done
                    wait
                    """)
            }
            #expect(!result.stdout.contains("failed"), "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            let store = try Self.open(server)
            let item = try #require(try store.item("tea"))
            for w in 1...8 { #expect(item["w\(w)"]?.intValue == 15) }
        }

        @Test("etcd's limits are named, never split around: 129 writes, a 2 MiB item")
        func limits() async throws {
            let server = try await blocking { try EtcdServer() }
            let store = try Self.open(server)
            let many = #expect(throws: StoreError.self) {
                try store.write { tx in
                    for i in 0..<129 { try tx.put("item-\(i)", ["n": .number(JSONNumber(i))]) }
                }
            }
            #expect(many?.code == .tooLarge)
            #expect(
                many?.message.contains("--max-txn-ops, 128 by default") == true,
                "\(String(describing: many))")
            // Over etcd's limit, and over its gateway's (2 MiB) too.
            for size in [1_700_000, 2 << 20] {
                let big = String(repeating: "x", count: size)
                let large = #expect(throws: StoreError.self) {
                    try store.put("big", ["text": .string(big)])
                }
                #expect(large?.code == .tooLarge)
                #expect(
                    large?.message.contains("--max-request-bytes") == true,
                    "\(String(describing: large))")
                #expect(large?.file == "tasks/big")
            }
            #expect(try store.load().items.isEmpty)
        }

        @Test("a wrong address fails at open, naming the endpoint")
        func unreachable() async throws {
            let port = try EtcdServer.freePort()
            let error = #expect(throws: StoreError.self) {
                try JSONStore(etcd: ["127.0.0.1:\(port)"], prefix: "tasks", timeout: 2)
            }
            #expect(error?.code == .storeUnavailable)
            #expect(
                error?.description.contains("127.0.0.1:\(port)") == true,
                "\(String(describing: error))")
            // Both are .storeUnavailable, as documented (not .invalidID).
            let malformed = #expect(throws: StoreError.self) {
                try JSONStore(etcd: ["nonsense:port"], prefix: "tasks")
            }
            #expect(malformed?.code == .storeUnavailable)
            #expect(
                throws: StoreError(
                    code: .storeUnavailable,
                    message: "an etcd store needs a key prefix, as in etcd://127.0.0.1:2379/tasks",
                    file: "etcd://127.0.0.1:1/")
            ) { try JSONStore(etcd: ["127.0.0.1:1"], prefix: "") }
        }
    }
}
