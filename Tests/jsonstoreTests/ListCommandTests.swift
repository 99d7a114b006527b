import Foundation
import JSONStore
import TestSupport
import Testing

/// `jsonstore list` once and with `--follow`: its formats on a terminal's behalf and to a
/// pipe, and the change lines and NDJSON that follow.
@Suite("jsonstore list and its output")
struct ListCommandTests {
    @Test("list -o table prints a table, sorted and filtered as asked")
    func list() async throws {
        let temp = try sampleStore()
        var result = try await jsonstore(temp, ["list", "-o", "table"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                ID     TITLE         STATUS  PRIORITY
                bike   Fix the bike  done    1
                taxes  File taxes    todo    3
                tea    Make tea      todo    2

                """)
        result = try await jsonstore(
            temp,
            [
                "list", "-o", "table", "--sort", "-priority", "--where", "status=todo", "--columns",
                "priority,title",
            ])
        #expect(
            result.stdout
                == "ID     PRIORITY  TITLE\ntaxes  3         File taxes\ntea    2         Make tea\n"
        )
        result = try await jsonstore(temp, ["list", "-o", "table", "--where", "priority=1"])
        #expect(result.stdout.split(separator: "\n").count == 2)
        result = try await jsonstore(temp, ["list", "-o", "table"], environment: ["COLUMNS": "24"])
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 24 })
        #expect(result.stdout.contains("…"))
        result = try await jsonstore(
            temp, ["list", "-o", "table", "--no-headers", "--columns", "status"])
        #expect(result.stdout == "bike   done\ntaxes  todo\ntea    todo\n")
    }

    @Test(
        "list to a pipe: whole values, tab-separated, a header, no trailing spaces, one line per item"
    )
    func listPiped() async throws {
        let temp = try sampleStore()
        let long =
            "A title long enough to be cut in any table of eighty columns, which it must not be here"
        try temp.writeFile(
            "fix-bike-brakes-before-the-long-ride-on-sunday.json",
            "{\"title\": \"\(long)\", \"status\": \"to\\tdo\\nlater\", \"priority\": 1}")
        try temp.writeFile("nostatus.json", "{\"title\": \"No status\"}")
        var result = try await jsonstore(temp, ["list"], environment: ["COLUMNS": "40"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                id\ttitle\tstatus\tpriority
                bike\tFix the bike\tdone\t1
                fix-bike-brakes-before-the-long-ride-on-sunday\t\(long)\tto\\tdo\\nlater\t1
                nostatus\tNo status\t\t
                taxes\tFile taxes\ttodo\t3
                tea\tMake tea\ttodo\t2

                """)
        #expect(!result.stdout.contains(" \n") && !result.stdout.contains("…"))
        // The first column is the ids, whole: what `awk '{print $1}'` and `cut -f1` rely on.
        let ids = result.stdout.split(separator: "\n").dropFirst().map {
            $0.split(separator: "\t")[0]
        }
        #expect(
            ids == [
                "bike", "fix-bike-brakes-before-the-long-ride-on-sunday", "nostatus", "taxes",
                "tea",
            ])
        result = try await jsonstore(temp, ["list", "--no-headers", "--columns", "status"])
        #expect(
            result.stdout
                == "bike\tdone\nfix-bike-brakes-before-the-long-ride-on-sunday\tto\\tdo\\nlater\nnostatus\t\ntaxes\ttodo\ntea\ttodo\n"
        )
        result = try await jsonstore(temp, ["list", "-o", "tsv", "--where", "status=todo"])
        #expect(
            result.stdout
                == "id\ttitle\tstatus\tpriority\ntaxes\tFile taxes\ttodo\t3\ntea\tMake tea\ttodo\t2\n"
        )
    }

    @Test("list -o ids, ndjson and json")
    func listFormats() async throws {
        let temp = try sampleStore()
        var result = try await jsonstore(temp, ["list", "-o", "ids", "--sort", "-priority"])
        #expect(result.status == 0)
        #expect(result.stdout == "taxes\ntea\nbike\n")
        result = try await jsonstore(
            temp, ["list", "--output", "ndjson", "--where", "status=todo"])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty)
        #expect(
            try lines.dropLast().map { try JSONValue(parsing: String($0))["id"] } == [
                "taxes", "tea",
            ])
        result = try await jsonstore(temp, ["list", "-o", "json"])
        #expect(result.stdout == (try await jsonstore(temp, ["list", "--json"])).stdout)
        #expect(try JSONValue(parsing: result.stdout).arrayValue?.count == 3)
    }

    @Test("list --json prints the items as a JSON array, each with its id")
    func listJSON() async throws {
        let temp = try sampleStore()
        let result = try await jsonstore(temp, ["list", "--json"])
        #expect(result.status == 0)
        let value = try JSONValue(parsing: result.stdout)
        #expect(value.arrayValue?.compactMap { $0["id"]?.stringValue } == ["bike", "taxes", "tea"])
        #expect(value.arrayValue?.first?["priority"] == 1)
    }

    @Test(
        "list --follow, piped: the listing (TSV, or -o table), then one line per change; --json: NDJSON, flushed per line",
        .timeLimit(.minutes(1)))
    func follow() async throws {
        for format in ["tsv", "table", "json"] {
            let json = format == "json"
            let temp = try sampleStore()
            let path = temp.path
            let output = try await blocking { () -> String in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
                process.arguments =
                    ["--dir", path, "list", "--follow"] + (format == "tsv" ? [] : ["-o", format])
                let pipe = ChildOutput.pipe()
                process.standardOutput = pipe
                try process.run()
                defer { HelperProcess.stop(process) }
                let reader = LineReader(pipe)
                let first = reader.next(within: 20)  // the table's header, or the initial event
                let store = try JSONStore(directory: path)
                try store.put("new", ["title": "New"])
                _ = reader.next(until: { $0.contains("new") }, within: 20)
                try store.update("tea") { $0["status"] = "done" }
                _ = reader.next(
                    until: { $0.contains("tea") || $0.contains("\"modifications\":[2]") },
                    within: 20)
                try FileManager.default.removeItem(atPath: path + "/bike.json")
                _ = reader.next(
                    until: {
                        $0.contains("bike")
                            && ($0.hasPrefix("DELETED") || $0.contains("deleted\":[{"))
                    }, within: 20)
                try "{".write(toFile: path + "/taxes.json", atomically: false, encoding: .utf8)
                _ = reader.next(
                    until: { $0.contains("INVALID") || $0.contains("\"line\":1") }, within: 20)
                HelperProcess.stop(process)
                return ([first ?? ""] + reader.lines).joined(separator: "\n")
                    + "\nstatus \(process.terminationStatus)"
            }
            if json {
                let lines = output.split(separator: "\n").dropLast()
                #expect(lines.count == 5, "\(output)")
                let events = try lines.map { try JSONValue(parsing: String($0)) }
                #expect(
                    events.map { $0["event"]?.stringValue ?? "" } == [
                        "initial", "update", "update", "update", "update",
                    ])
                #expect(events[0]["items"]?.arrayValue?.count == 3)
                #expect(events[1]["inserted"]?.arrayValue?.first?["id"] == "new")
                #expect(events[4]["invalid"]?.arrayValue?.first?["file"] == "taxes.json")
            } else if format == "tsv" {
                #expect(
                    output.hasPrefix("id\ttitle\tstatus\tpriority\nbike\tFix the bike\tdone\t1\n"),
                    "\(output)")
                #expect(
                    output.hasSuffix(
                        "tea\tMake tea\ttodo\t2\nADDED new\nMODIFIED tea\nDELETED bike\nINVALID taxes: \(path)/taxes.json:1:2: unexpected end of input, expected a string key\nstatus 0"
                    ), "\(output)")
            } else {
                #expect(
                    output == """
                        ID     TITLE         STATUS  PRIORITY
                        bike   Fix the bike  done    1
                        taxes  File taxes    todo    3
                        tea    Make tea      todo    2
                        ADDED new
                        MODIFIED tea
                        DELETED bike
                        INVALID taxes: \(path)/taxes.json:1:2: unexpected end of input, expected a string key
                        status 0
                        """)
            }
        }
    }
}
