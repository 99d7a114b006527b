import Foundation
import JSONStore
import TestSupport
import Testing

/// `list --count-by` through the built binary: one-shot in every format, and the stream
/// of counts.
@Suite("Counts on the command line")
struct CountByTests {
    /// The sample store plus items that lack a status, have `null`, and a number.
    func store() throws -> TemporaryStore {
        let temp = try sampleStore()
        try temp.writeFile("nap.json", #"{"title": "Nap", "priority": 1}"#)
        try temp.writeFile("void.json", #"{"title": "Void", "status": null, "priority": 2}"#)
        try temp.writeFile("walk.json", #"{"title": "Walk", "status": "todo", "priority": 1}"#)
        return temp
    }

    @Test("tsv and json: each value with its count, in value order, --where first")
    func oneShot() async throws {
        let temp = try store()
        var result = try await jsonstore(temp, ["list", "--count-by", "status", "-o", "tsv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "status\tcount\n\t1\nnull\t1\ndone\t1\ntodo\t3\n")
        result = try await jsonstore(temp, ["list", "--count-by", "status", "--json"])
        let counts = try JSONValue(parsing: result.stdout).arrayValue ?? []
        #expect(counts.map { $0["value"] } == [nil, .null, "done", "todo"])
        #expect(counts.map { $0["count"]?.intValue } == [1, 1, 1, 3])
        result = try await jsonstore(
            temp, ["list", "--count-by", "status", "--where", "priority<3", "-o", "tsv"])
        #expect(result.stdout == "status\tcount\n\t1\nnull\t1\ndone\t1\ntodo\t2\n")
        result = try await jsonstore(
            temp, ["list", "--count-by", "priority", "--sort", "-priority", "-o", "tsv"])
        #expect(result.stdout == "priority\tcount\n3\t1\n2\t2\n1\t3\n")
        result = try await jsonstore(
            temp,
            [
                "list", "--count-by", "status", "--sort", "-count", "-o", "ndjson",
                "--no-headers",
            ])
        let lines = result.stdout.split(separator: "\n").map { try? JSONValue(parsing: String($0)) }
        #expect(lines.first??["value"] == "todo" && lines.first??["count"]?.intValue == 3)
        #expect(lines.count == 4)
    }

    @Test("a table on a terminal width, and what --count-by cannot go with")
    func tableAndUsage() async throws {
        let temp = try store()
        let result = try await jsonstore(
            temp, ["list", "--count-by", "status", "-o", "table"], environment: ["COLUMNS": "40"])
        #expect(result.stdout.split(separator: "\n").first == "STATUS  COUNT")
        #expect(result.stdout.contains("todo    3"))
        for arguments in [
            ["list", "--count-by", "status", "-o", "ids"],
            ["list", "--count-by", "status", "--follow"],
            ["list", "--count-by", "status", "--columns", "title"],
            ["list", "--count-by", "status", "--sort", "title"],
            ["list", "--count-by", "status", "--follow", "--json", "--since", "x:1"],
        ] {
            let refused = try await jsonstore(temp, arguments)
            #expect(refused.status == 64, "\(arguments): \(refused.stdout)")
            #expect(refused.stderr.contains("--"), "\(refused.stderr)")
        }
    }

    @Test("an array counts each distinct element once per item, as --where matches them")
    func arrays() async throws {
        // The sample data/: tags home 6, urgent 5; and an item naming home twice.
        let temp = try TemporaryStore()
        let data = checkoutRoot.appendingPathComponent("data").path
        for name in try FileManager.default.contentsOfDirectory(atPath: data)
        where name.hasSuffix(".json") {
            try temp.writeFile(name, try String(contentsOfFile: data + "/" + name, encoding: .utf8))
        }
        try temp.writeFile("twice.json", #"{"title": "Twice", "tags": ["home", "home"]}"#)
        let tsv = try await jsonstore(temp, ["list", "--count-by", "tags", "-o", "tsv"])
        let counts = Dictionary(
            uniqueKeysWithValues: tsv.stdout.split(separator: "\n").dropFirst().map {
                let cells = $0.split(separator: "\t")
                return (String(cells[0]), Int(cells[1]) ?? -1)
            })
        #expect(counts["home"] == 7 && counts["urgent"] == 5, "\(tsv.stdout)")
        #expect(counts["home,urgent"] == nil, "no whole arrays: \(tsv.stdout)")
        let home = try await jsonstore(temp, ["list", "--where", "tags=home", "-o", "ids"])
        #expect(home.stdout.split(separator: "\n").count == counts["home"])
        // The stream counts alike.
        let running = try JSONStoreBinary.start([
            "--dir", temp.path, "list", "--follow", "--json", "--count-by", "tags",
        ])
        defer { running.stop() }
        let line = try #require(try await blocking { running.reader.next(within: 20) })
        let live = try JSONValue(parsing: line)["counts"]?.arrayValue ?? []
        let homeCount = live.first { $0["value"] == "home" }?["count"]?.intValue
        #expect(homeCount == 7, "\(line)")
        #expect(live.first { $0["value"] == "urgent" }?["count"]?.intValue == 5, "\(line)")
    }

    @Test("--follow --json: counts first, then only when a count changes")
    func stream() async throws {
        let temp = try store()
        let running = try JSONStoreBinary.start([
            "--dir", temp.path, "list", "--follow", "--json", "--count-by", "status",
        ])
        func next() async throws -> JSONValue {
            let line = try #require(try await blocking { running.reader.next(within: 20) })
            return try JSONValue(parsing: line)
        }
        var event = try await next()
        #expect(event["event"] == "counts")
        #expect(event["revision"]?.stringValue?.isEmpty == false)
        #expect(event["counts"]?.arrayValue?.map { $0["count"]?.intValue } == [1, 1, 1, 3])
        // A title's edit changes no count: the next event is the status's change.
        try temp.store.update("tea") { $0["title"] = "Make green tea" }
        try temp.store.update("tea") { $0["status"] = "done" }
        event = try await next()
        #expect(event["event"] == "counts")
        #expect(
            event["counts"]?.arrayValue?.map { $0["count"]?.intValue } == [1, 1, 2, 2],
            "\(event)")
        // A value that appears, and one that goes.
        try temp.store.update("nap") { $0["status"] = "doing" }
        event = try await next()
        let values = event["counts"]?.arrayValue?.map { $0["value"] }
        #expect(values == [.null, "doing", "done", "todo"], "\(event)")
        running.stop()
    }
}
