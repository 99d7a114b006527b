import Foundation
import JSONStore
import TestSupport
import Testing

/// Runs `jsonstore --dir <store> arguments…`.
func jsonstore(
    _ temp: TemporaryStore, _ arguments: [String], stdin: String = "",
    environment: [String: String] = [:]
)
    async throws -> JSONStoreBinary.Result
{
    let path = temp.path
    return try await blocking {
        try JSONStoreBinary.run(
            ["--dir", path] + arguments, stdin: stdin, environment: environment)
    }
}

func sampleStore() throws -> TemporaryStore { try TemporaryStore.tasks() }

@Suite("The jsonstore command")
struct CommandTests {
    @Test("get prints an item; --json as JSON; a missing item fails")
    func get() async throws {
        let temp = try sampleStore()
        var result = try await jsonstore(temp, ["get", "tea"])
        #expect(result.status == 0)
        #expect(result.stdout == "id: tea\ntitle: Make tea\nstatus: todo\npriority: 2\n")
        result = try await jsonstore(temp, ["get", "tea", "--json"])
        #expect(try JSONValue(parsing: result.stdout)["title"] == "Make tea")
        result = try await jsonstore(temp, ["get", "nope"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "jsonstore: no item \"nope\" in \(temp.path)\n")
    }

    @Test("put replaces an item from a file or stdin, validated first")
    func put() async throws {
        let temp = try sampleStore()
        var result = try await jsonstore(
            temp, ["put", "new", "-"], stdin: "{\"title\": \"New\", \"priority\": 5}")
        #expect(result.status == 0)
        #expect(temp.readFile("new.json") == "{\n  \"title\": \"New\",\n  \"priority\": 5\n}\n")
        // The input file lives in a directory of this test's own, never in $TMPDIR itself.
        let scratch = try TemporaryStore()
        try scratch.writeFile("input.json", "{\"status\": \"done\", \"title\": \"Tea!\"}")
        result = try await jsonstore(temp, ["put", "tea", scratch.path + "/input.json"])
        #expect(result.status == 0)
        #expect(
            temp.readFile("tea.json") == "{\n  \"title\": \"Tea!\",\n  \"status\": \"done\"\n}\n")
        result = try await jsonstore(temp, ["put", "tea"], stdin: "{\n  \"title\": tru\n}")
        #expect(result.status == 1)
        #expect(result.stderr == "jsonstore: <stdin>:2:12: invalid literal, expected 'true'\n")
        result = try await jsonstore(temp, ["put", "tea"], stdin: "[1]")
        #expect(result.status == 1)
        #expect(result.stderr.contains("must be a JSON object"))
        #expect(
            temp.readFile("tea.json") == "{\n  \"title\": \"Tea!\",\n  \"status\": \"done\"\n}\n")
        result = try await jsonstore(temp, ["put", "x", "/nonexistent/file.json"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "jsonstore: /nonexistent/file.json: cannot open the file: No such file or directory\n"
        )
        result = try await jsonstore(temp, ["put", "x", scratch.path])
        #expect(result.status == 1)
        #expect(
            result.stderr == "jsonstore: \(scratch.path): cannot read the file: Is a directory\n")
        // Larger than the item limit: refused before parsing, the store untouched.
        let big = "{\"pad\": \"" + String(repeating: "x", count: 17 << 20) + "\"}"
        try scratch.writeFile("big.json", big)
        result = try await jsonstore(temp, ["put", "x", scratch.path + "/big.json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("big.json: larger than the 16 MiB limit"))
        #expect(temp.readFile("x.json") == nil)
    }

    @Test("set patches members, creating the item if missing")
    func set() async throws {
        let temp = try sampleStore()
        var result = try await jsonstore(
            temp, ["set", "tea", "status=done", "priority:=7", "tags:=[\"a\"]"])
        #expect(result.status == 0)
        #expect(
            temp.readFile("tea.json")
                == "{\n  \"title\": \"Make tea\",\n  \"status\": \"done\",\n  \"priority\": 7,\n  \"tags\": [\n    \"a\"\n  ]\n}\n"
        )
        result = try await jsonstore(temp, ["set", "fresh", "title=Fresh"])
        #expect(result.status == 0)
        #expect(temp.readFile("fresh.json") == "{\n  \"title\": \"Fresh\"\n}\n")
        result = try await jsonstore(temp, ["set", "tea", "n:=tru"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("invalid literal"))
    }

    @Test("delete removes items; a missing one fails but the others go")
    func delete() async throws {
        let temp = try sampleStore()
        let result = try await jsonstore(temp, ["delete", "tea", "nope", "bike"])
        #expect(result.status == 1)
        #expect(result.stderr == "jsonstore: no item \"nope\" in \(temp.path)\n")
        #expect(try temp.names().filter { $0.hasSuffix(".json") } == ["taxes.json"])
    }

    @Test("check lists invalid files with line and column, exit 1; a clean store exits 0")
    func check() async throws {
        let temp = try sampleStore()
        var result = try await jsonstore(temp, ["check"])
        #expect(result.status == 0)
        #expect(result.stdout == "")
        try temp.writeFile("bad.json", "{\n  \"a\": 1,\n}\n")
        result = try await jsonstore(temp, ["check"])
        #expect(result.status == 1)
        #expect(result.stdout == "\(temp.path)/bad.json:2:9: trailing comma before '}'\n")
        #expect(result.stderr == "jsonstore: 4 files, 1 invalid\n")
        result = try await jsonstore(temp, ["list", "-o", "ids"])
        #expect(result.status == 0)
        #expect(result.stdout == "bike\ntaxes\ntea\n")
        #expect(result.stderr.contains("bad.json:2:9"))
    }

    @Test("--help, COMMAND --help and --version")
    func help() async throws {
        let temp = try sampleStore()
        var result = try await jsonstore(temp, ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("usage: jsonstore [--dir DIR | --store ADDRESS]"))
        #expect(result.stdout.contains("etcd://HOST:PORT"))
        for command in ["list", "get", "put", "set", "delete", "check", "demo"] {
            result = try await jsonstore(temp, [command, "--help"])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("usage: jsonstore \(command)"))
        }
        result = try await jsonstore(temp, ["--version"])
        #expect(result.stdout.hasPrefix("jsonstore "))
        // One text per command, however it is asked for.
        for command in ["list", "get", "help"] {
            let asked = try await jsonstore(temp, [command, "--help"])
            #expect(try await jsonstore(temp, ["help", command]).stdout == asked.stdout)
            #expect(try await jsonstore(temp, [command, "-h"]).stdout == asked.stdout)
            #expect(try await jsonstore(temp, ["--help", command]).stdout == asked.stdout)
        }
        let overview = try await jsonstore(temp, ["--help"]).stdout
        #expect(try await jsonstore(temp, ["help"]).stdout == overview)
    }

    @Test("-- ends the options: get -- --help reads the item --help; delete -- -x deletes -x")
    func doubleDash() async throws {
        let temp = try sampleStore()
        try temp.writeFile("--help.json", "{\"title\": \"Help me\"}")
        try temp.writeFile("-x.json", "{}")
        var result = try await jsonstore(temp, ["get", "--", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout == "id: --help\ntitle: Help me\n")
        result = try await jsonstore(temp, ["delete", "--", "-x"])
        #expect(result.status == 0)
        #expect(temp.readFile("-x.json") == nil)
    }

    @Test("global options go before or after the command; --dir wins over $JSONSTORE_DIR")
    func globalOptionsAnywhere() async throws {
        let temp = try sampleStore()
        let other = try TemporaryStore()
        let (path, otherPath) = (temp.path, other.path)
        var result = try await blocking { try JSONStoreBinary.run(["get", "tea", "--dir", path]) }
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("id: tea\n"))
        result = try await blocking {
            try JSONStoreBinary.run(
                ["get", "--dir=" + path, "tea"], environment: ["JSONSTORE_DIR": otherPath])
        }
        #expect(result.status == 0)
        result = try await blocking {
            try JSONStoreBinary.run(["--dir", otherPath, "get", "tea", "--dir", path])
        }
        #expect(result.status == 0, "the later --dir wins")
        result = try await blocking {
            try JSONStoreBinary.run(["list", "--color", "never", "--dir", path])
        }
        #expect(result.status == 0)
        #expect(result.stdout.contains("Make tea"))
    }

    @Test("the store defaults to $JSONSTORE_DIR, then ./data")
    func defaultDirectory() async throws {
        let temp = try sampleStore()
        let path = temp.path
        var result = try await blocking {
            try JSONStoreBinary.run(["get", "tea"], environment: ["JSONSTORE_DIR": path])
        }
        #expect(result.status == 0)
        let parent = try TemporaryStore()
        try FileManager.default.createDirectory(
            atPath: parent.path + "/data", withIntermediateDirectories: false)
        try "{\"x\": 1}".write(
            toFile: parent.path + "/data/here.json", atomically: false, encoding: .utf8)
        let parentPath = parent.path
        result = try await blocking { try JSONStoreBinary.run(["get", "here"], in: parentPath) }
        // Once empty under the full suite, with nothing else said: now it says why.
        #expect(
            result.stdout == "id: here\nx: 1\n",
            "status \(result.status), stderr: \(result.stderr)")
        result = try await blocking {
            try JSONStoreBinary.run(["--dir", parentPath + "/missing", "list"])
        }
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "jsonstore: \(parentPath)/missing: the store directory does not exist\n")
    }

    static let usageErrors: [[String]] = [
        [], ["frobnicate"], ["--bogus"], ["--dir"], ["--color", "sometimes", "list"],
        ["list", "extra"], ["list", "--bogus"], ["list", "--sort"], ["list", "--sort", "-"],
        ["list", "--where", "a!b"], ["list", "--where", "=x"], ["list", "--columns", ","],
        ["list", "--poll", "0"], ["list", "--poll", "soon"], ["list", "--json=yes"],
        ["list", "--color", "pink"],
        ["list", "-o", "xml"], ["list", "-o", "tsv", "--json"], ["get", "--", "a", "b"],
        ["get"], ["get", "a", "b"], ["put"], ["put", "a", "b", "c"], ["set"], ["set", "a"],
        ["set", "a", "novalue"], ["set", "a", "=x"], ["delete"], ["check", "x"],
        ["demo", "x"], ["demo", "--interval", "-1"], ["demo", "--count", "0"], ["help", "nothing"],
    ]

    @Test("usage errors exit 64 with a one-line hint", arguments: usageErrors)
    func usageError(_ arguments: [String]) async throws {
        let temp = try sampleStore()
        let result = try await jsonstore(temp, arguments)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("jsonstore: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("(see 'jsonstore"))
    }

    static let refusedIDs = [
        "../x", "a/b", ".hidden", "", "bad\u{1B}[2J", "nl\nx", String(repeating: "x", count: 201),
    ]

    @Test("refused ids fail before any file is touched", arguments: refusedIDs)
    func refusedID(_ id: String) async throws {
        let temp = try sampleStore()
        let before = try temp.names()
        for arguments in [
            ["get", id], ["put", id, "-"], ["set", id, "a=b"], ["delete", "tea", id],
        ] {
            let result = try await jsonstore(temp, arguments, stdin: "{}")
            #expect(result.status == 1, "\(arguments)")
            #expect(
                result.stderr.hasPrefix("jsonstore: invalid id"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1B })
            #expect(try temp.names() == before, "\(arguments) touched the store")
        }
    }

    @Test(
        "demo replaces only its own items, with the sample's fields; SIGTERM stops it between rounds and removes them unless --keep",
        arguments: [false, true])
    func demo(keep: Bool) async throws {
        let temp = try sampleStore()
        try temp.writeFile("demo-1.json", "{\"title\": \"Not a demo item\"}\n")
        let path = temp.path
        let (status, output) = try await blocking { () -> (Int32, String) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
            process.arguments =
                ["--dir", path, "demo", "--interval", "0.05", "--count", "5"]
                + (keep ? ["--keep"] : [])
            let pipe = ChildOutput.pipe()
            process.standardOutput = pipe
            try process.run()
            // Wait for the third round's line (or give up after a minute), then SIGTERM.
            let reader = LineReader(pipe)
            _ = reader.next(until: { $0.hasPrefix("round 3:") }, within: 60)
            process.terminate()
            var lines = reader.lines
            while let line = reader.next() { lines.append(line) }
            process.waitUntilExit()
            let output = lines.map { $0 + "\n" }.joined()
            return (process.terminationStatus, output)
        }
        // Each round makes exactly the count it reports: distinct ids, none of another item.
        let rounds = output.split(separator: "\n").filter { $0.hasPrefix("round ") }
        #expect(
            rounds.count >= 3 && rounds.allSatisfy { $0.hasSuffix(": 5 demo items") }, "\(output)")
        #expect(status == 0)
        let items = try temp.store.load().items
        let demoItems = items.filter { $0["demo"] == true }
        if keep {
            #expect(demoItems.count == 5, "a round was cut short: \(demoItems.map(\.id))")
            #expect(!output.contains("removed"))
            for item in demoItems {
                #expect(
                    Array(item.object.keys) == [
                        "id", "title", "status", "priority", "tags", "updated", "demo",
                    ])
            }
        } else {
            #expect(demoItems.isEmpty, "left behind: \(demoItems.map(\.id))")
            #expect(output.hasSuffix("stopped: 5 demo items removed\n"), "\(output)")
        }
        #expect(items.filter { $0["demo"] == nil }.map(\.id) == ["bike", "demo-1", "taxes", "tea"])
        #expect(temp.readFile("demo-1.json") == "{\"title\": \"Not a demo item\"}\n")
        let names = try temp.names()
        #expect(
            names.allSatisfy {
                $0.hasSuffix(".json") || $0 == ".jsonstore.lock" || $0 == ".jsonstore"
            },
            "left behind: \(names)")
    }

    @Test("hostile titles are escaped in every plain output; NDJSON escapes C1 and line separators")
    func hostileTitles() async throws {
        let temp = try TemporaryStore()
        try temp.writeFile(
            "evil.json",
            "{\"title\": \"a\\u001b]0;pwned\\u0007b\\u001b[2Jc\\rd\\u202ee\\u009bf\\u2028g\"}")
        for arguments in [
            ["list"], ["list", "-o", "table"], ["get", "evil"], ["list", "--columns", "title"],
        ] {
            let result = try await jsonstore(temp, arguments, environment: ["COLUMNS": "200"])
            #expect(result.status == 0)
            #expect(
                result.stdout.contains("a^[]0;pwned^Gb^[[2Jc\\rd\\u{202E}e\\u{9B}f\\u{2028}g"),
                "\(arguments): \(result.stdout)")
            #expect(
                !result.stdout.unicodeScalars.contains {
                    [0x07, 0x0D, 0x1B, 0x9B, 0x202E, 0x2028].contains($0.value)
                })
        }
        for arguments in [["list", "--json"], ["get", "evil", "--json"]] {
            let result = try await jsonstore(temp, arguments)
            #expect(
                !result.stdout.unicodeScalars.contains {
                    [0x07, 0x0D, 0x1B, 0x9B, 0x2028].contains($0.value)
                })
            #expect(result.stdout.contains("\\u001b]0;pwned\\u0007"))
            #expect(result.stdout.contains("\\u009b") && result.stdout.contains("\\u2028"))
        }
    }
}
