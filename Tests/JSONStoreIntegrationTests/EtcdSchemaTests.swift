import Dispatch
import Foundation
import JSONStore
import JSONStoreEtcd
import TestSupport
import Testing

extension EtcdTests.Live {
    /// Ranks at most `maximum`, titles required.
    static func schema(maximum: Int) -> [UInt8] {
        Array(
            #"{"properties": {"rank": {"type": "integer", "maximum": \#(maximum)}}, "required": ["title"]}"#
                .utf8)
    }

    @Test("a store on etcd: its schema checked live, changed by a put of its key, kept when broken")
    func schemaLive() async throws {
        let f = try await blocking { try Fixture() }
        try f.store.setSchema(Self.schema(maximum: 9))
        try await f.ctl("put", "tasks/a", #"{"title": "a", "rank": 1}"#)
        #expect(await f.waitFor(["a"]))
        // Another program's put that breaks it: flagged, the last valid value kept.
        try await f.ctl("put", "tasks/a", #"{"title": "a", "rank": 12}"#)
        #expect(await f.recorder.wait { $0.results.invalid.map(\.name) == ["a.json"] })
        let error = try #require(f.recorder.current.results.error(for: "a"))
        #expect(error.code == .schemaViolation)
        #expect(error.violations.first?.instancePath == "/rank")
        #expect(f.recorder.current.results.first?["rank"] == 1)
        // Refused through the library, nothing written.
        #expect(throws: StoreError.self) { try f.store.put("b", ["title": "b", "rank": 30]) }
        #expect(try f.store.item("b") == nil)
        // The schema loosened: the item it makes valid arrives in one update.
        let before = f.recorder.current.updates.count
        try f.store.setSchema(Self.schema(maximum: 20))
        #expect(await f.recorder.wait { $0.results.invalid.isEmpty })
        #expect(f.recorder.current.results.first?["rank"] == 12)
        #expect(f.recorder.current.updates.count == before + 1)
        // A load applies the schema of the revision it lists, whoever put it.
        #expect(try f.store.load().invalid.isEmpty)
        try await f.ctl(
            "put", "tasks/.jsonstore/schema.json",
            String(decoding: Self.schema(maximum: 5), as: UTF8.self))
        let loaded = try f.store.load()
        #expect(loaded.items.isEmpty)
        #expect(loaded.invalid.map(\.name) == ["a.json"])
        #expect(loaded.invalid.first?.error.code == .schemaViolation)
        #expect(await f.recorder.wait { $0.results.invalid.map(\.name) == ["a.json"] })
        // A schema broken by another program: reported, the last valid one in force.
        try f.store.setSchema(Self.schema(maximum: 20))
        #expect(await f.recorder.wait { $0.results.invalid.isEmpty })
        try await f.ctl("put", "tasks/.jsonstore/schema.json", "{not json")
        #expect(
            await f.recorder.wait {
                $0.results.invalid.map(\.name) == [".jsonstore/schema.json"]
            })
        try await f.ctl("put", "tasks/a", #"{"title": "a", "rank": 25}"#)
        #expect(
            await f.recorder.wait {
                $0.results.invalid.map(\.name) == [".jsonstore/schema.json", "a.json"]
            })
        #expect(f.recorder.current.ids == ["a"])
        #expect(f.recorder.current.violations.isEmpty, "\(f.recorder.current.violations)")
    }
}
