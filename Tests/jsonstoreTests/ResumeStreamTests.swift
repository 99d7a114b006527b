import Foundation
import JSONStore
import TestSupport
import Testing

/// `list --follow --json --since` on a directory, across processes: the journal's
/// revisions are the store's, so a reader that kept its list resumes from any process.
@Suite("Resuming a directory's stream from another process", .serialized)
struct ResumeStreamTests {
    typealias Stream = RevisionStreamTests.Stream

    /// A stream reader's list, kept as the events say: the items in order.
    struct KeptList {
        var items: [JSONValue] = []

        mutating func apply(_ event: JSONValue) {
            switch event["event"]?.stringValue {
            case "initial":
                items = event["items"]?.arrayValue ?? []
            case "update":
                let ints = { (name: String) in
                    (event[name]?.arrayValue ?? []).compactMap { $0.intValue }
                }
                for index in ints("deletions").sorted(by: >) { items.remove(at: index) }
                let inserted = event["inserted"]?.arrayValue ?? []
                for (n, index) in ints("insertions").enumerated() {
                    items.insert(inserted[n], at: index)
                }
                let modified = event["modified"]?.arrayValue ?? []
                for (n, index) in ints("modificationsNew").enumerated() {
                    items[index] = modified[n]
                }
            default: break
            }
        }
    }

    /// What `list -o json` says the store holds now.
    static func listed(_ temp: TemporaryStore) async throws -> [JSONValue] {
        let result = try await jsonstore(temp, ["list", "-o", "json"])
        return try JSONValue(parsing: result.stdout).arrayValue ?? []
    }

    @Test("another process resumes from a kept revision: its list equals list -o json")
    func anotherProcess() async throws {
        let temp = try sampleStore()
        var kept = KeptList()
        let first = try Stream(["--dir", temp.path, "list", "--follow", "--json"])
        kept.apply(try #require(try await blocking { first.next("initial") }))
        try temp.store.put("new", ["title": "New"])
        let update = try #require(try await blocking { first.next("update") })
        kept.apply(update)
        let token = try #require(update["revision"]?.stringValue)
        try await blocking { HelperProcess.stop(first.process) }

        // While nothing watches: a hand edit, a hand deletion, a file made by hand, and a
        // jsonstore write.
        try temp.writeFile("tea.json", #"{"title": "Make green tea", "status": "doing"}"#)
        try FileManager.default.removeItem(atPath: temp.path + "/bike.json")
        try temp.writeFile("apple.json", #"{"title": "Buy apples"}"#)
        #expect(try await jsonstore(temp, ["set", "taxes", "status=done"]).status == 0)

        let second = try Stream([
            "--dir", temp.path, "list", "--follow", "--json", "--since", token,
        ])
        let resumed = try #require(
            await blocking { second.reader.next(within: 20) }.flatMap {
                try? JSONValue(parsing: $0)
            })
        #expect(resumed["event"] == "resumed", "\(resumed)")
        #expect(resumed["revision"]?.stringValue == token)
        let changes = try #require(try await blocking { second.next("update") })
        kept.apply(changes)
        #expect(kept.items == (try await Self.listed(temp)))
        #expect(changes["deleted"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["bike"])
        // Its revisions go on from the journal's.
        let later = try #require(changes["revision"]?.stringValue)
        #expect(later != token && later.hasSuffix(token.drop { $0 != "@" }), "\(later)")
        try temp.store.put("kiwi", ["title": "Kiwi"])
        let live = try #require(try await blocking { second.next("update") })
        kept.apply(live)
        #expect(kept.items == (try await Self.listed(temp)))
    }

    @Test("a bare revision from log resumes; a newer one or another journal's gives reset")
    func revisions() async throws {
        let temp = try sampleStore()
        // The first look records the three items where their history begins (1 to 3),
        // then `new` is made (4): at 3, the store held all but it.
        #expect(try await jsonstore(temp, ["log", "-n", "1"]).status == 0)
        try temp.store.put("new", ["title": "New"])
        let now = try await Self.listed(temp)
        let log = try await jsonstore(temp, ["log", "-o", "json", "-n", "1"])
        let newest = try #require(try JSONValue(parsing: log.stdout).arrayValue?.first)
        #expect(newest["revision"] == 4 && newest["id"] == "new", "\(newest)")

        let bare = try Stream(["--dir", temp.path, "list", "--follow", "--json", "--since", "3"])
        let resumed = try #require(
            await blocking { bare.reader.next(within: 20) }.flatMap { try? JSONValue(parsing: $0) })
        #expect(resumed["event"] == "resumed", "\(resumed)")
        let full = try #require(resumed["revision"]?.stringValue)
        #expect(full.wholeMatch(of: /3@[0-9a-f]{16}/) != nil, "\(full)")
        var kept = KeptList(items: now.filter { $0["id"] != "new" })
        kept.apply(try #require(try await blocking { bare.next("update") }))
        #expect(kept.items == now)
        try await blocking { HelperProcess.stop(bare.process) }

        let tag = full.drop { $0 != "@" }
        for (token, reason) in [
            ("99" + tag, "newer than the journal's"),
            ("2@0000000000000000", "another journal"),
            ("tea", "not a revision of this store"),
        ] {
            let stream = try Stream([
                "--dir", temp.path, "list", "--follow", "--json", "--since", token,
            ])
            let reset = try #require(
                await blocking { stream.reader.next(within: 20) }.flatMap {
                    try? JSONValue(parsing: $0)
                })
            #expect(reset["event"] == "reset", "\(token): \(reset)")
            #expect(reset["reason"]?.stringValue?.contains(reason) == true, "\(token): \(reset)")
            let fresh = try #require(try await blocking { stream.next("initial") })
            #expect(fresh["items"]?.arrayValue?.count == 4)
            try await blocking { HelperProcess.stop(stream.process) }
        }
    }
}
