import Foundation
import JSONStore
import TestSupport
import Testing

/// Every command on etcd against the same items in a directory: the same output, the same
/// exit status, and (for writes) the same store afterwards. The values are put into etcd
/// by `etcdctl`, byte for byte the files' contents.
@Suite(
    "The command on etcd, against a directory", .serialized,
    .enabled(
        if: EtcdServer.isInstalled,
        "etcd is not installed: apt-get install etcd-server etcd-client"))
struct EtcdConformanceTests {
    /// A directory of tasks (one of them invalid, one with nested members) and the same
    /// keys in a fresh etcd.
    final class Pair: @unchecked Sendable {  // read-only after init
        let directory: TemporaryStore
        let server: EtcdServer
        var address: String { "etcd://\(server.endpoint)/tasks" }

        init() throws {
            directory = try TemporaryStore.tasks()
            try directory.writeFile(
                "owned.json",
                "{\n  \"title\": \"Owned\",\n  \"owner\": {\"name\": \"ann\"},\n  \"priority\": 2,\n  \"tags\": [\"home\", \"x\"]\n}\n"
            )
            try directory.writeFile("broken.json", "{\n  \"title\": \"x\",\n  oops\n}\n")
            server = try EtcdServer()
            for name in try directory.names() where name.hasSuffix(".json") {
                let text = try #require(directory.readFile(name))
                try server.etcdctl(["put", "tasks/" + name.dropLast(5), text])
            }
        }

        /// The same command on both, with each store's name for an item put in one form.
        func both(_ arguments: [String], stdin: String = "") async throws -> (
            JSONStoreBinary.Result, JSONStoreBinary.Result
        ) {
            let (dir, address) = (directory.path, self.address)
            return try await blocking {
                (
                    try JSONStoreBinary.run(["--dir", dir] + arguments, stdin: stdin),
                    try JSONStoreBinary.run(["--store", address] + arguments, stdin: stdin)
                )
            }
        }

        /// `text` with the directory's file paths written as etcd's keys, and the store's
        /// name as etcd's address.
        func normalized(_ text: String) -> String {
            var text = text
            for id in ["tea", "bike", "taxes", "owned", "broken", "new", "nope"] {
                text = text.replacingOccurrences(
                    of: "\(directory.path)/\(id).json", with: "tasks/\(id)")
            }
            // A directory counts files, etcd keys.
            return text.replacingOccurrences(of: directory.path, with: address)
                .replacingOccurrences(of: "jsonstore: 5 files, ", with: "jsonstore: 5 keys, ")
        }
    }

    static let reads: [[String]] = [
        ["list"], ["list", "-o", "table"], ["list", "-o", "json"], ["list", "-o", "ndjson"],
        ["list", "-o", "ids"], ["list", "-o", "tsv"], ["list", "--where", "status=todo"],
        ["list", "--where", "priority>1", "--sort", "-priority,title"],
        ["list", "--columns", "title,owner.name", "--where", "tags=home"],
        ["list", "--where", "nosuchfield=1"], ["get", "tea"], ["get", "tea", "--json"],
        ["get", "owned"], ["get", "nope"], ["get", "broken"], ["check"],
    ]

    @Test("reads: list in every format and query, get, check", arguments: reads)
    func read(_ arguments: [String]) async throws {
        let pair = try await blocking { try Pair() }
        let (dir, etcd) = try await pair.both(arguments)
        #expect(etcd.status == dir.status, "\(arguments): \(etcd.stderr)")
        #expect(pair.normalized(dir.stdout) == etcd.stdout, "\(arguments)")
        // check on etcd says which server it is and its limits, after the same lines.
        let server = etcd.stderr.split(separator: "\n").filter {
            $0.hasPrefix("jsonstore: etcd 3.")
        }
        #expect(server.count == (arguments == ["check"] ? 1 : 0), "\(etcd.stderr)")
        if arguments == ["check"] {
            #expect(server.first?.contains("--max-txn-ops") == true)
        }
        let rest = etcd.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("jsonstore: etcd 3.") }.joined(separator: "\n")
        #expect(pair.normalized(dir.stderr) == rest, "\(arguments)")
    }

    @Test("an invalid value or key is named by its key, in the stream and check's count")
    func keys() async throws {
        let pair = try await blocking { try Pair() }
        try await pair.server.etcdctl(["put", "tasks/sub/x", "{}"])
        let address = pair.address
        let check = try await blocking {
            try JSONStoreBinary.run(["--store", address, "check"])
        }
        #expect(check.stderr.hasPrefix("jsonstore: 6 keys, 2 invalid\n"), "\(check.stderr)")
        let (initial, update) = try await blocking { () -> (String?, String?) in
            let running = try JSONStoreBinary.start(
                ["--store", address, "list", "--follow", "--json"])
            defer { running.stop() }
            let initial = running.reader.next(
                until: { $0.contains(#""event":"initial""#) }, within: 20)
            try pair.server.etcdctl(["put", "tasks/tea", "[1]"])
            let update = running.reader.next(
                until: { $0.contains(#""event":"update""#) }, within: 20)
            return (initial, update)
        }
        let named = { (line: String?) in
            (try? JSONValue(parsing: line ?? ""))?["invalid"]?.arrayValue?.compactMap {
                $0["file"]?.stringValue
            }
        }
        #expect(named(initial) == ["tasks/broken", "tasks/sub/x"], "\(initial ?? "")")
        #expect(named(update) == ["tasks/tea"], "\(update ?? "")")
    }

    static let writes: [(arguments: [String], stdin: String)] = [
        (["put", "new", "-"], #"{"title": "New", "n": 1}"#), (["put", "tea", "-"], "[1]"),
        (["set", "tea", "status=done", "priority=5"], ""), (["set", "owned", "owner.name=bo"], ""),
        (["set", "nope", "title=created"], ""), (["delete", "bike", "taxes"], ""),
        (["delete", "nope"], ""), (["put", "bad/id", "-"], "{}"),
    ]

    @Test("writes: put, set, delete; the same result and the same items after")
    func write() async throws {
        let pair = try await blocking { try Pair() }
        for (arguments, stdin) in Self.writes {
            let (dir, etcd) = try await pair.both(arguments, stdin: stdin)
            #expect(etcd.status == dir.status, "\(arguments): \(etcd.stderr)")
            #expect(pair.normalized(dir.stdout) == etcd.stdout, "\(arguments)")
            #expect(pair.normalized(dir.stderr) == etcd.stderr, "\(arguments)")
            let (dirList, etcdList) = try await pair.both(["list", "-o", "json"])
            #expect(dirList.stdout == etcdList.stdout, "after \(arguments)")
        }
        // And the bytes: etcd holds what the files hold.
        for id in ["new", "tea", "owned"] {
            let value = try await pair.server.etcdctl(["get", "tasks/" + id, "--print-value-only"])
            #expect(value.output == (pair.directory.readFile(id + ".json") ?? "") + "\n", "\(id)")
        }
    }

    @Test("demo: rounds of demo items, removed on Ctrl-C, the others untouched, on both")
    func demo() async throws {
        let pair = try await blocking { try Pair() }
        let before = try await pair.both(["list", "-o", "ids"])
        for store in [["--dir", pair.directory.path], ["--store", pair.address]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
            process.arguments = store + ["demo", "--count", "3", "--interval", "0.2"]
            let pipe = ChildOutput.pipe()
            process.standardOutput = pipe
            try process.run()
            nonisolated(unsafe) let reader = LineReader(pipe)  // read by one thread at a time
            let second = try await blocking {
                reader.next(until: { $0 == "round 2: 3 demo items" }, within: 20)
            }
            #expect(second != nil, "\(store): \(reader.lines)")
            let during = try await blocking {
                try JSONStoreBinary.run(store + ["list", "-o", "ids"])
            }
            #expect(
                during.stdout.split(separator: "\n").filter { $0.hasPrefix("demo-") }.count == 3)
            kill(process.processIdentifier, SIGINT)
            let last = try await blocking {
                reader.next(until: { $0.hasPrefix("stopped:") }, within: 20)
            }
            #expect(last == "stopped: 3 demo items removed", "\(store)")
            // Its own exit awaited (20 s at most) on a thread of its own.
            let status = try await blocking {
                let deadline = Date().addingTimeInterval(20)
                while process.isRunning && Date() < deadline { usleep(10_000) }
                HelperProcess.stop(process)
                return process.terminationStatus
            }
            #expect(status == 0)
        }
        let after = try await pair.both(["list", "-o", "ids"])
        #expect(after.0.stdout == before.0.stdout && after.1.stdout == before.1.stdout)
        #expect(after.0.stdout == after.1.stdout)
    }

    @Test("the stream's initial event is the same on both")
    func follow() async throws {
        let pair = try await blocking { try Pair() }
        var firsts: [String] = []
        for store in [["--dir", pair.directory.path], ["--store", pair.address]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
            process.arguments = store + ["list", "--follow", "--json"]
            let pipe = ChildOutput.pipe()
            process.standardOutput = pipe
            try process.run()
            let line = try await blocking {
                defer { HelperProcess.stop(process) }
                return HelperProcess.lines(of: pipe).first { _ in true }
            }
            // The revision is each backend's own (etcd's, or this follower's); an invalid
            // entry is a file's name in one, a key in the other.
            let revision = try Regex(#""revision":"[^"]*""#)
            firsts.append(
                pair.normalized(line ?? "(none)").replacing(revision, with: #""revision":"R""#)
                    .replacingOccurrences(
                        of: #""file":"broken.json""#, with: #""file":"tasks/broken""#))
        }
        #expect(firsts[0] == firsts[1])
        #expect(firsts[0].hasPrefix(#"{"event":"initial""#))
    }
}
