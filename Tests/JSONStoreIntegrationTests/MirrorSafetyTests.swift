import Foundation
import Glibc
import TestSupport
import Testing

extension EtcdTests.Mirror {
    /// How many keys etcd holds under the pair's prefix; `nil` when it cannot be asked.
    static func keyCount(_ pair: MirrorPair) -> Int? {
        guard
            let got = try? pair.server.etcdctl([
                "get", "\(pair.prefix)/", "--prefix", "--keys-only",
            ]),
            got.status == 0
        else { return nil }
        return got.output.split(separator: "\n").count
    }

    @Test(
        "the directory replaced under a running mirror: nothing is deleted anywhere",
        arguments: ["mkdir a", "cp -a a.old a"])
    func directoryReplaced(replacement: String) async throws {
        try await blocking {
            let pair = try Self.started()
            _ = try JSONStoreBinary.shell("cd '\(pair.root)' && mv a a.old && \(replacement)")
            // The mirror stops, or sends what it no longer sees as deleted: whichever comes.
            _ = pair.wait { pair.pid("a") == nil || Self.keyCount(pair) != 3 }
            #expect(Self.keyCount(pair) == 3, "etcd keeps every item: \(pair.log("a"))")
            let status = pair.exitStatus("a", within: 5)
            if status == nil { pair.stop("a") }
            #expect(status == 1, "the mirror stops: \(pair.log("a"))")
            #expect(pair.log("a").contains("was replaced"), "\(pair.log("a"))")
            if replacement == "mkdir a" {
                #expect(
                    !FileManager.default.fileExists(atPath: pair.path("a") + "/.jsonstore"),
                    "nothing is written into the new directory")
            }
            // An edit on b goes through etcd: b still holds every item.
            try pair.write("b", "tea.json", Self.task("tea", "after"))
            #expect(
                pair.wait {
                    (try? pair.server.etcdctl(["get", "tasks/tea"]))?.output.contains("after")
                        == true
                })
            #expect(pair.items("b").count == 3, "b keeps every item")
            // Started again, the new directory is mirrored as a new one: it downloads.
            try pair.start("a")
            #expect(
                pair.converge {
                    $0.count == 3 && pair.text("a", "tea.json")?.contains("after") == true
                },
                "\(pair.log("a"))")
            #expect(Self.keyCount(pair) == 3)
        }
    }

    @Test(
        "a wiped etcd at the same address: no file is deleted, every item is uploaded",
        arguments: [0, 6])
    func etcdReplaced(writesSince: Int) async throws {
        try await blocking {
            let pair = try Self.started()
            #expect(pair.stop("a") == 0 && pair.stop("b") == 0)
            pair.server.stop()
            try FileManager.default.removeItem(atPath: pair.server.dataDirectory)
            try pair.server.start()
            // Written elsewhere since: its revision is past the one the mirrors synced at.
            for n in 0..<writesSince { try pair.server.etcdctl(["put", "elsewhere/\(n)", "x"]) }
            try pair.start("a")
            #expect(
                pair.wait { Self.keyCount(pair) == 3 && pair.items("a").count == 3 },
                "a: \(pair.log("a"))")
            #expect(pair.items("a").count == 3, "no file is deleted")
            let said = pair.log("a").components(separatedBy: "is not the etcd").count - 1
            #expect(said == 1, "said once: \(pair.log("a"))")
            try pair.start("b")
            #expect(pair.converge { $0.count == 3 }, "b: \(pair.log("b"))")
            for side in ["a", "b"] {
                let check = try pair.jsonstore(side, ["check"])
                #expect(check.status == 0, "no conflict on \(side): \(check.stdout)")
            }
            let doctor = try pair.jsonstore("a", ["doctor"])
            #expect(doctor.stdout.contains("is not the etcd"), "\(doctor.stdout)")
        }
    }

    @Test("a second mirror of one directory refuses, naming the first one's pid")
    func secondMirrorRefuses() async throws {
        try await blocking {
            let pair = try Self.started()
            let first = try #require(pair.pid("a"))
            try pair.start("a", as: "a2")
            let status = pair.exitStatus("a2")
            if status == nil { pair.stop("a2") }
            #expect(status == 1, "\(pair.log("a2"))")
            #expect(pair.log("a2").contains("pid \(first)"), "\(pair.log("a2"))")
            // The first goes on.
            try pair.write("a", "tea.json", Self.task("tea", "still mirrored"))
            #expect(
                pair.converge { _ in
                    pair.text("b", "tea.json")?.contains("still mirrored") == true
                })
        }
    }
}
