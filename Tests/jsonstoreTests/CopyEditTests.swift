import Foundation
import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand
@testable import JSONStoreEtcd

/// The list view's `e` on etcd, where an item has no file: a copy edited and put back with
/// the etag it started from. The editor here is a closure that does what a person would.
@Suite(
    "Editing a copy of an etcd item", .serialized,
    .enabled(
        if: EtcdServer.isInstalled, "etcd is not installed: apt-get install etcd-server etcd-client"
    ))
struct CopyEditTests {
    static func text(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
    static func write(_ text: String, _ path: String) {
        try? text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    @Test("a save is put back; left as it was, nothing is written")
    func save() async throws {
        let server = try await blocking { try EtcdServer() }
        let store = try JSONStore(etcd: [server.endpoint], prefix: "tasks")
        try store.put("tea", ["title": "Make tea"])
        let before = try #require(try store.item("tea")).etag
        var notice = CopyEdit(store: store, id: "tea") { _ in .success(0) }.run()
        let after = try store.item("tea")?.etag
        #expect(notice == nil && after == before)
        notice = CopyEdit(store: store, id: "tea") { paths in
            #expect(paths.count == 1 && paths[0].hasSuffix("/tea.json"))
            #expect(Self.text(paths[0]) == "{\n  \"title\": \"Make tea\"\n}\n")
            Self.write("{\"title\": \"Make green tea\"}", paths[0])
            return .success(0)
        }.run()
        #expect(notice == nil)
        #expect(try store.item("tea")?["title"] == "Make green tea")
    }

    @Test("changed meanwhile: the editor again, with the value now beside; never overwritten")
    func conflict() async throws {
        let server = try await blocking { try EtcdServer() }
        let store = try JSONStore(etcd: [server.endpoint], prefix: "tasks")
        try store.put("tea", ["title": "Make tea"])
        // On a thread of its own: the editor's stand-in runs etcdctl.
        let (notice, rounds, beside) = try await blocking {
            var rounds: [[String]] = []
            var beside: String?
            let notice = CopyEdit(store: store, id: "tea") { paths in
                rounds.append(paths)
                if rounds.count == 1 {
                    Self.write("{\"title\": \"mine\"}", paths[0])
                    // Another client writes while the editor is open.
                    _ = try? server.etcdctl(["put", "tasks/tea", #"{"title":"theirs"}"#])
                } else {
                    beside = Self.text(paths[1])
                    Self.write("{\"title\": \"mine and theirs\"}", paths[0])
                }
                return .success(0)
            }.run()
            return (notice, rounds, beside)
        }
        #expect(beside == #"{"title":"theirs"}"#)
        #expect(notice == nil)
        #expect(rounds.count == 2 && rounds[1].count == 2)
        #expect(rounds.last?.last?.hasSuffix("tea.now-in-the-store.json") == true)
        #expect(try store.item("tea")?["title"] == "mine and theirs")
    }

    @Test("changed meanwhile, and the copy not saved again: the store's value is kept")
    func conflictNotResaved() async throws {
        let server = try await blocking { try EtcdServer() }
        let store = try JSONStore(etcd: [server.endpoint], prefix: "tasks")
        try store.put("tea", ["title": "Make tea"])
        let (notice, rounds, copy) = try await blocking {
            var rounds = 0
            var copy = ""
            let notice = CopyEdit(store: store, id: "tea") { paths in
                rounds += 1
                copy = paths[0]
                if rounds == 1 {
                    Self.write("{\"title\": \"mine\"}", paths[0])
                    _ = try? server.etcdctl(["put", "tasks/tea", #"{"title":"theirs"}"#])
                }  // the second time, the user reads theirs and quits without saving
                return .success(0)
            }.run()
            return (notice, rounds, copy)
        }
        #expect(rounds == 2)
        #expect(
            notice?.contains("tea not saved: it changed meanwhile") == true,
            "\(String(describing: notice))")
        #expect(try store.item("tea")?["title"] == "theirs")
        #expect(Self.text(copy) == "{\"title\": \"mine\"}")
        let folder = (copy as NSString).deletingLastPathComponent
        let mode =
            try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test("a copy that does not parse is not put, and kept where the notice says")
    func invalid() async throws {
        let server = try await blocking { try EtcdServer() }
        let store = try JSONStore(etcd: [server.endpoint], prefix: "tasks")
        try store.put("tea", ["title": "Make tea"])
        var kept = ""
        let notice = CopyEdit(store: store, id: "tea") { paths in
            kept = paths[0]
            Self.write("{\"title\": oops}", paths[0])
            return .success(0)
        }.run()
        let text = try #require(notice)
        #expect(text.contains("tea not saved: 1:11:") && text.contains(kept), "\(text)")
        #expect(Self.text(kept) == "{\"title\": oops}")
        #expect(try store.item("tea")?["title"] == "Make tea")
        try? FileManager.default.removeItem(atPath: (kept as NSString).deletingLastPathComponent)
    }

    @Test("a broken value (another client's) can be fixed from its copy")
    func fixBroken() async throws {
        let server = try await blocking { try EtcdServer() }
        let store = try JSONStore(etcd: [server.endpoint], prefix: "tasks")
        try await server.etcdctl(["put", "tasks/tea", "{broken"])
        let notice = CopyEdit(store: store, id: "tea") { paths in
            #expect(Self.text(paths[0]) == "{broken")
            Self.write("{\"title\": \"fixed\"}", paths[0])
            return .success(0)
        }.run()
        #expect(notice == nil)
        #expect(try store.item("tea")?["title"] == "fixed")
    }
}
