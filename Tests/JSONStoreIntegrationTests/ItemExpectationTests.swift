import JSONStore
import JSONStoreEtcd
import TestSupport
import Testing

/// Compare-and-swap through the library, the same checks on a directory and on etcd.
@Suite("Compare-and-swap in the library")
struct ItemExpectationTests {
    /// Puts, deletes and batches that expect an etag or an absent item.
    static func exercise(_ store: JSONStore) throws {
        try store.put("tea", ["title": "Make tea"], expecting: .absent)
        let first = try #require(try store.item("tea")).etag
        let taken = #expect(throws: StoreError.self) {
            try store.put("tea", ["title": "again"], expecting: .absent)
        }
        #expect(taken?.code == .changed && taken?.message.contains("exists already") == true)
        try store.put("tea", ["title": "Make green tea"], expecting: .etag(first))
        let second = try #require(try store.item("tea")).etag
        #expect(second != first)
        let stale = #expect(throws: StoreError.self) {
            try store.put("tea", ["title": "lost"], expecting: .etag(first))
        }
        #expect(stale?.code == .changed)
        #expect(
            stale?.message
                == "changed since etag \(first): its etag is now \(second); nothing was written")
        #expect(try store.item("tea")?["title"] == "Make green tea")
        // In a batch: the expectation holds for the whole of it, or nothing is written.
        #expect(throws: StoreError.self) {
            try store.write { tx in
                try tx.put("other", ["n": 1])
                try tx.expect("tea", .etag(first))
                try tx.put("tea", ["title": "lost too"])
            }
        }
        #expect(try store.item("other") == nil)
        #expect(throws: StoreError.self) { try store.delete("tea", expecting: .etag(first)) }
        #expect(try store.delete("tea", expecting: .etag(second)))
        let gone = #expect(throws: StoreError.self) {
            try store.put("tea", [:], expecting: .etag(second))
        }
        #expect(gone?.message.contains("was deleted since etag \(second)") == true)
    }

    @Test("in a directory: etags are signatures of the bytes")
    func directory() throws {
        let temp = try TemporaryStore()
        try Self.exercise(temp.store)
        try temp.store.put("x", ["n": 1])
        let etag = try #require(try temp.store.item("x")).etag
        try temp.writeFile("x.json", "{\n  \"n\": 2\n}\n")  // a hand edit, no lock
        #expect(try temp.store.item("x")?.etag != etag)
        #expect(throws: StoreError.self) {
            try temp.store.put("x", ["n": 3], expecting: .etag(etag))
        }
    }
}

extension EtcdTests {
    @Suite("Compare-and-swap on etcd")
    struct ItemExpectations {
        @Test("on etcd: etags are mod_revisions")
        func etcd() async throws {
            let server = try await blocking { try EtcdServer() }
            let store = try JSONStore(etcd: [server.endpoint], prefix: "tasks")
            try ItemExpectationTests.exercise(store)
            try store.put("x", ["n": 1])
            let etag = try #require(try store.item("x")).etag
            #expect(Int(etag) != nil)
            try await server.etcdctl(["put", "tasks/x", #"{"n":2}"#])  // another client
            #expect(throws: StoreError.self) {
                try store.put("x", ["n": 3], expecting: .etag(etag))
            }
        }
    }
}
