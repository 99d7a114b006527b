import Foundation
import JSONStore
import TestSupport
import Testing

/// Revisions in the NDJSON stream: every event carries one, `--since` resumes from one
/// (or says it cannot and starts afresh), bookmarks give a fresh one while nothing changes.
@Suite("Revisions in the stream", .serialized)
struct RevisionStreamTests {
    /// `jsonstore ARGUMENTS list --follow --json EXTRA`, its lines read as they come.
    final class Stream: @unchecked Sendable {  // one test reads it at a time
        let process = Process()
        let reader: LineReader

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["JSONSTORE_DIR"] = nil
            environment["JSONSTORE_STORE"] = nil
            process.environment = environment
            let pipe = ChildOutput.pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            reader = LineReader(pipe)
            try process.run()
        }

        // On a thread of its own: the last reference often goes on the cooperative pool.
        deinit {
            let process = process
            Thread.detachNewThread { HelperProcess.stop(process) }
        }

        /// The next event whose `"event"` is `name`, within 20 s.
        func next(_ name: String, within seconds: Double = 20) -> JSONValue? {
            let line = reader.next(until: { $0.contains(#"{"event":"\#(name)""#) }, within: seconds)
            return line.flatMap { try? JSONValue(parsing: $0) }
        }
    }

    @Test("a directory: every event has the journal's revision; a bookmark repeats it")
    func directory() async throws {
        let temp = try sampleStore()
        let first = try Stream([
            "--dir", temp.path, "list", "--follow", "--json", "--bookmarks", "0.2",
        ])
        let initial = try #require(try await blocking { first.next("initial") })
        let token = try #require(initial["revision"]?.stringValue)
        // The journal recorded the three items as it first saw them: revision 3.
        #expect(token.wholeMatch(of: /3@[0-9a-f]{16}/) != nil, "\(token)")
        let bookmark = try #require(try await blocking { first.next("bookmark") })
        #expect(bookmark["revision"]?.stringValue == token)
        try temp.store.put("new", ["title": "New"])
        let update = try #require(try await blocking { first.next("update") })
        let next = try #require(update["revision"]?.stringValue)
        #expect(next == "4" + token.dropFirst(), "\(next)")
    }

    @Test("--since and --bookmarks go with --follow --json only")
    func usage() async throws {
        let temp = try sampleStore()
        for arguments in [
            ["list", "--since", "1"], ["list", "--follow", "--bookmarks", "1"],
            ["list", "--follow", "--json", "--bookmarks", "-1"],
        ] {
            let result = try await jsonstore(temp, arguments)
            #expect(result.status == 64, "\(arguments)")
        }
    }

    @Test(
        "etcd: --since resumes with the changes since; compacted gives reset; bookmarks stay fresh",
        .enabled(
            if: EtcdServer.isInstalled,
            "etcd is not installed: apt-get install etcd-server etcd-client"))
    func etcd() async throws {
        let server = try await blocking { try EtcdServer() }
        let address = "etcd://\(server.endpoint)/tasks"
        for id in ["a", "b", "c"] { try await server.etcdctl(["put", "tasks/\(id)", #"{"n":0}"#]) }
        // A reader keeps the initial list and its revision, and goes away.
        let mirror = NDJSONMirror()
        var token = ""
        do {
            let stream = try Stream(["--store", address, "list", "--follow", "--json"])
            let initial = try #require(try await blocking { stream.reader.next(within: 20) })
            mirror.apply(initial)
            token = try #require(try JSONValue(parsing: initial)["revision"]?.stringValue)
        }
        #expect(Int(token) != nil, "\(token)")
        try await server.etcdctl(["put", "tasks/a", #"{"n":1}"#])
        try await server.etcdctl(["del", "tasks/b"])
        try await server.etcdctl(["put", "tasks/d", #"{"n":0}"#])
        // It comes back with its revision: one update brings its list up to date.
        let resumed = try Stream([
            "--store", address, "list", "--follow", "--json", "--since", token,
        ])
        let first = try #require(try await blocking { resumed.reader.next(within: 20) })
        #expect(first == #"{"event":"resumed","revision":"\#(token)"}"#)
        let update = try #require(try await blocking { resumed.reader.next(within: 20) })
        mirror.apply(update)
        let now = try await blocking {
            try JSONStoreBinary.run(["--store", address, "list", "-o", "json"])
        }
        #expect(.array(mirror.items) == (try JSONValue(parsing: now.stdout)))
        // Bookmarks: a write elsewhere in etcd moves its revision; the stream's bookmark
        // catches up with it while the prefix stays as it is.
        let elsewhere = try await server.etcdctl(["put", "other/x", "1", "-w", "json"]).output
        let moved = try #require(try JSONValue(parsing: elsewhere)["header"]?["revision"]?.intValue)
        let quiet = try Stream([
            "--store", address, "list", "--follow", "--json", "--bookmarks", "1",
        ])
        let fresh = try await blocking {
            quiet.reader.next(
                until: { line in
                    guard line.contains(#""event":"bookmark""#),
                        let event = try? JSONValue(parsing: line),
                        let revision = event["revision"]?.stringValue.flatMap({ Int($0) })
                    else { return false }
                    return revision >= moved
                }, within: 30)
        }
        #expect(fresh != nil, "no bookmark at revision \(moved) or later: \(quiet.reader.lines)")
        // Compacted past the token: reset, then a fresh initial.
        try await server.etcdctl(["compact", String(moved)])
        let late = try Stream(["--store", address, "list", "--follow", "--json", "--since", token])
        let reset = try #require(
            await blocking { late.reader.next(within: 20) }.flatMap { try? JSONValue(parsing: $0) })
        #expect(reset["event"] == "reset")
        #expect(reset["reason"]?.stringValue?.contains("compacted") == true, "\(reset)")
        let initial = try #require(try await blocking { late.next("initial") })
        #expect(initial["items"] == (try JSONValue(parsing: now.stdout)))
    }

    @Test(
        "etcd: --since from a revision where items were invalid resumes the list a follower kept",
        .enabled(
            if: EtcdServer.isInstalled,
            "etcd is not installed: apt-get install etcd-server etcd-client"))
    func etcdInvalidAtRevision() async throws {
        let server = try await blocking { try EtcdServer() }
        let address = "etcd://\(server.endpoint)/tasks"
        for id in ["a", "b", "c"] { try await server.etcdctl(["put", "tasks/\(id)", #"{"n":0}"#]) }
        // A follower sees b and c turn invalid: its list keeps their last valid values.
        let mirror = NDJSONMirror()
        var token = ""
        do {
            let stream = try Stream(["--store", address, "list", "--follow", "--json"])
            mirror.apply(try #require(try await blocking { stream.reader.next(within: 20) }))
            try await server.etcdctl(["put", "tasks/b", "[1]"])
            try await server.etcdctl(["put", "tasks/c", "{oops"])
            let last = try #require(
                try await blocking {
                    stream.reader.next(until: { $0.contains(#""id":"c","file""#) }, within: 20)
                })
            for line in stream.reader.lines { mirror.apply(line) }
            token = try #require(try JSONValue(parsing: last)["revision"]?.stringValue)
        }
        #expect(mirror.items.count == 3, "\(mirror.items)")
        // Meanwhile b is fixed and a changes; c stays invalid.
        try await server.etcdctl(["put", "tasks/b", #"{"n":2}"#])
        try await server.etcdctl(["put", "tasks/a", #"{"n":1}"#])
        let resumed = try Stream([
            "--store", address, "list", "--follow", "--json", "--since", token,
        ])
        let first = try #require(try await blocking { resumed.reader.next(within: 20) })
        #expect(first == #"{"event":"resumed","revision":"\#(token)"}"#)
        mirror.apply(try #require(try await blocking { resumed.reader.next(within: 20) }))
        #expect(mirror.problems.isEmpty, "\(mirror.problems)")
        // The kept list, with the one update, is the list a follower starting now gets.
        let fresh = try Stream(["--store", address, "list", "--follow", "--json"])
        let initial = try #require(try await blocking { fresh.next("initial") })
        #expect(.array(mirror.items) == initial["items"], "\(mirror.items)")
        // Once etcd's history before the token is compacted, b's and c's last valid values
        // cannot be known: reset, then a fresh initial.
        try await server.etcdctl(["compact", token])
        let late = try Stream(["--store", address, "list", "--follow", "--json", "--since", token])
        let reset = try #require(try await blocking { late.next("reset") })
        #expect(
            reset["reason"]?.stringValue?.contains("history of tasks/b before revision \(token)")
                == true,
            "\(reset)")
        // The list after the reset is a fresh follower's now: c's history is gone, so
        // neither keeps a value for it.
        let after = try Stream(["--store", address, "list", "--follow", "--json"])
        let current = try #require(try await blocking { after.next("initial") })
        #expect(try await blocking { late.next("initial") }?["items"] == current["items"])
    }

    @Test("etcd: a follower started while an item was invalid resumes as one that saw it valid")
    func etcdInvalidAtStart() async throws {
        // The reverse of the test above: the kept list must depend only on the revision,
        // not on when its follower started. Before, this follower kept no c, and the
        // resumed list (read from etcd's history, c's last valid value kept) sent c's
        // deletion at index 2 of a list of 2.
        let server = try await blocking { try EtcdServer() }
        let address = "etcd://\(server.endpoint)/tasks"
        for id in ["a", "b", "c"] { try await server.etcdctl(["put", "tasks/\(id)", #"{"n":0}"#]) }
        try await server.etcdctl(["put", "tasks/c", "{oops"])
        let mirror = NDJSONMirror()
        let stream = try Stream(["--store", address, "list", "--follow", "--json"])
        let initial = try #require(try await blocking { stream.reader.next(within: 20) })
        mirror.apply(initial)
        let token = try #require(try JSONValue(parsing: initial)["revision"]?.stringValue)
        #expect(mirror.items.count == 3, "c's last valid value is kept: \(mirror.items)")
        try await server.etcdctl(["put", "tasks/a", #"{"n":1}"#])
        let resumed = try Stream([
            "--store", address, "list", "--follow", "--json", "--since", token,
        ])
        let first = try #require(try await blocking { resumed.reader.next(within: 20) })
        #expect(first == #"{"event":"resumed","revision":"\#(token)"}"#)
        mirror.apply(try #require(try await blocking { resumed.reader.next(within: 20) }))
        #expect(mirror.problems.isEmpty, "\(mirror.problems)")
        let fresh = try Stream(["--store", address, "list", "--follow", "--json"])
        let now = try #require(try await blocking { fresh.next("initial") })
        #expect(.array(mirror.items) == now["items"], "\(mirror.items)")
    }
}
