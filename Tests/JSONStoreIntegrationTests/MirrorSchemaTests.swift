import Foundation
import Glibc
import TestSupport
import Testing

extension EtcdTests.Mirror {
    @Test("the schema is carried both ways: set on one side, edited on etcd, removed")
    func schemaBothWays() async throws {
        try await blocking {
            let pair = try Self.started()
            let schema = #"{"required": ["title"]}"# + "\n"
            try pair.write("a", ".jsonstore/schema.json", schema)
            #expect(pair.wait { pair.text("b", ".jsonstore/schema.json") == schema })
            let key = try pair.server.etcdctl([
                "get", "tasks/.jsonstore/schema.json", "--print-value-only",
            ])
            #expect(key.output.hasPrefix(schema), "\(key.output)")
            // Changed on etcd by another program: both directories take it.
            let loose = #"{"required": []}"# + "\n"
            _ = try pair.server.etcdctl(["put", "tasks/.jsonstore/schema.json", loose])
            #expect(
                pair.wait {
                    pair.text("a", ".jsonstore/schema.json") == loose
                        && pair.text("b", ".jsonstore/schema.json") == loose
                })
            // Removed by hand on b: gone from etcd and from a.
            unlink(pair.file("b", ".jsonstore/schema.json"))
            #expect(pair.wait { pair.text("a", ".jsonstore/schema.json") == nil })
            let gone = try pair.server.etcdctl(["get", "tasks/.jsonstore/schema.json"])
            #expect(gone.output.isEmpty, "\(gone.output)")
            #expect(pair.text("a", ".jsonstore/schema.mine.json") == nil, "no conflict")
        }
    }

    @Test("a schema changed on both sides while apart: etcd's everywhere, the other kept")
    func schemaOnBothSides() async throws {
        try await blocking {
            let pair = try Self.started()
            #expect(pair.stop("b") == 0)
            let theirs = #"{"required": ["title"]}"# + "\n"
            let mine = #"{"required": ["status"]}"# + "\n"
            try pair.write("a", ".jsonstore/schema.json", theirs)
            #expect(
                pair.wait {
                    (try? pair.server.etcdctl(["get", "tasks/.jsonstore/schema.json"]))?.output
                        .contains("title") == true
                })
            try pair.write("b", ".jsonstore/schema.json", mine)
            try pair.start("b")
            #expect(pair.wait { pair.text("b", ".jsonstore/schema.json") == theirs })
            #expect(pair.text("b", ".jsonstore/schema.mine.json") == mine)
            #expect(pair.text("a", ".jsonstore/schema.json") == theirs)
            #expect(pair.wait { pair.log("b").contains("the schema changed on both sides") })
        }
    }
}
