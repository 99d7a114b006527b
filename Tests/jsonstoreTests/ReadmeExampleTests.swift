import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// The root of the checkout these tests were built from.
let checkoutRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// The README's Swift blocks are the programs in `Tests/ReadmeExamples/`, quoted
/// verbatim, and those programs run as the README says, on a copy of `data/`.
@Suite(
    "README examples",
    .enabled(
        if: FileManager.default.isReadableFile(atPath: checkoutRoot.path + "/README.md"),
        "the checkout is not readable by this user"))
struct ReadmeExampleTests {
    static let root = checkoutRoot
    static let examples = [
        "Observe": "readme-observe", "Basics": "readme-basics", "Async": "readme-async",
        "Groups": "readme-groups",
    ]

    /// The README's ```swift blocks.
    static func readmeBlocks() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = ""
            } else if current != nil, line == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current! += line + "\n"
            }
        }
        return blocks
    }

    /// A scratch directory holding a copy of the sample store as `data/`.
    static func sampleCopy() throws -> TemporaryStore {
        let scratch = try TemporaryStore()
        let data = root.appendingPathComponent("data").path
        #expect(mkdir(scratch.path + "/data", 0o755) == 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: data) {
            try scratch.writeFile(
                "data/" + name, try String(contentsOfFile: data + "/" + name, encoding: .utf8))
        }
        return scratch
    }

    /// The files of `directory` that differ from the sample store's (added, removed or
    /// changed), by name.
    static func sampleDifferences(in directory: String) throws -> [String] {
        let data = root.appendingPathComponent("data").path
        let files = FileManager.default
        let names = Set(try files.contentsOfDirectory(atPath: data))
            .union(try files.contentsOfDirectory(atPath: directory))
        return names.filter { name in
            !name.hasPrefix(".")
                && files.contents(atPath: data + "/" + name)
                    != files.contents(atPath: directory + "/" + name)
        }
        .sorted()
    }

    /// Starts an example in `directory`; its output lines are collected as they come.
    static func start(_ name: String, in directory: String) throws -> (Process, Locked<[String]>) {
        let process = Process()
        // Into a pipe, as a user piping it would: the observer example never exits, so it
        // must print as it goes, not when a full buffer is flushed.
        process.executableURL = HelperProcess.buildDirectory.appendingPathComponent(name)
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = ChildOutput.pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let lines = Locked<[String]>([])
        Thread.detachNewThread {
            for line in HelperProcess.lines(of: pipe) { lines.withLock { $0.append(line) } }
        }
        return (process, lines)
    }

    static func eventually(timeout: Double = 30, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test("every Swift block of the README is an example program, and every program is quoted")
    func quotedVerbatim() throws {
        let blocks = try Self.readmeBlocks()
        let programs = try Self.examples.keys.sorted().map {
            try String(
                contentsOf: Self.root.appendingPathComponent(
                    "Tests/ReadmeExamples/\($0)/main.swift"), encoding: .utf8)
        }
        #expect(blocks.count == programs.count)
        for block in blocks {
            #expect(programs.contains(block), "not an example program:\n\(block)")
        }
        for program in programs {
            #expect(blocks.contains(program), "not quoted in the README:\n\(program)")
        }
    }

    @Test(
        "README catches StoreError.Code.notFound inside a function, in a program that awaits at its top level, and says why"
    )
    func catchInsideAFunction() throws {
        // At the top level, before a top-level await, the pattern crashes Swift 6.3.1's
        // compiler; the examples are built with the package, so this one compiles.
        let blocks = try Self.readmeBlocks()
        let block = try #require(
            blocks.first { $0.contains("catch StoreError.Code.notFound") },
            "no Swift block catches a code")
        let lines = block.split(separator: "\n")
        let catchLine = try #require(lines.first { $0.contains("catch StoreError.Code.notFound") })
        #expect(catchLine.hasPrefix(" "), "the catch is at the top level: \(catchLine)")
        // In a function declared only `throws`, the same catch crashes the compiler too.
        let function = lines.prefix { $0 != catchLine }.last { $0.hasPrefix("func ") }
        #expect(function?.hasSuffix("throws(StoreError) {") == true, "\(function ?? "")")
        #expect(lines.contains { $0.hasPrefix("for await") || $0.hasPrefix("await ") })
        let readme = try String(
            contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8
        ).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(readme.contains("crashes the Swift 6.3.1 compiler"))
    }

    @Test("the reading and writing example runs as written")
    func basics() async throws {
        let scratch = try Self.sampleCopy()
        let (process, lines) = try Self.start("readme-basics", in: scratch.path)
        let status = try await blocking {
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(await Self.eventually { lines.withLock { $0.count } >= 6 })
        let output = lines.withLock { $0 }
        #expect(status == 0, "\(output)")
        #expect(output.prefix(2) == ["done", "\"Make tea\""])
        #expect(output.count == 6)  // three items, no invalid file, coffee
        #expect(output.last == "\"Make coffee\"")
        let store = try JSONStore(directory: scratch.path + "/data")
        #expect(try store.item("tea") == nil)
        // Run in a checkout, it leaves the sample store as it found it.
        #expect(try Self.sampleDifferences(in: scratch.path + "/data") == [], "\(output)")
    }

    @Test("the async example prints the open todos and ends")
    func async() async throws {
        let scratch = try Self.sampleCopy()
        let open = try JSONStore(directory: scratch.path + "/data").load().items
            .filter { $0["status"] != "done" }.count
        let (process, lines) = try Self.start("readme-async", in: scratch.path)
        let status = try await blocking {
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(status == 0)
        #expect(
            await Self.eventually {
                lines.withLock { $0 } == ["water-plants has no conflicts", "\(open) open todos"]
            }, "\(lines.withLock { $0 })")
    }

    @Test("the groups example prints the board, then one update in sections, and ends")
    func groups() async throws {
        let scratch = try Self.sampleCopy()
        let store = try JSONStore(directory: scratch.path + "/data")
        let items = try store.load().items
        let statuses = Set(items.compactMap { $0["status"]?.stringValue })
        let (process, lines) = try Self.start("readme-groups", in: scratch.path)
        defer { process.terminate() }
        let todo = items.filter { $0["status"] == "todo" }
        let sum = todo.compactMap { $0["priority"]?.intValue }.reduce(0, +)
        #expect(
            await Self.eventually {
                lines.withLock { $0 }.contains {
                    $0.hasPrefix("todo: \(todo.count), priority \(sum),")
                }
            },
            "\(lines.withLock { $0 })")
        #expect(lines.withLock { $0.count } == statuses.count)
        // A title edit is not heard; a new status is: a section of its own comes first.
        let target = try #require(todo.first)
        try store.update(target.id) { $0["title"] = "Renamed" }
        try store.update(target.id) { $0["status"] = "blocked" }
        let status = try await blocking {
            process.waitUntilExit()
            return process.terminationStatus
        }
        let output = lines.withLock { $0 }
        #expect(status == 0, "\(output)")
        let update = Array(output.dropFirst(statuses.count))
        let todoIndex = statuses.union(["blocked"]).sorted().firstIndex(of: "todo")!
        #expect(update.first == "sections +[0] -[], recounted [\(todoIndex)]", "\(output)")
        #expect(update.contains("\(target.id): \"todo\" -> \"blocked\""), "\(output)")
        #expect(
            update.contains {
                $0.hasPrefix("blocked: 1, priority ") && $0.hasSuffix("top: Renamed")
            })
    }

    @Test("the observer example prints the todos, then each change as it happens, into a pipe")
    func observe() async throws {
        let scratch = try Self.sampleCopy()
        let store = try JSONStore(directory: scratch.path + "/data")
        let items = try store.load().items
        let top = try #require(
            items.max {
                ($0["priority"]?.intValue ?? 0, $1.id) < ($1["priority"]?.intValue ?? 0, $0.id)
            })
        let (process, lines) = try Self.start("readme-observe", in: scratch.path)
        defer { process.terminate() }
        let first = "\(items.count) todos, first: \(top["title"]?.stringValue ?? "")"
        #expect(
            await Self.eventually { lines.withLock { $0 }.contains(first) },
            "\(lines.withLock { $0 })")

        let target = try #require(items.first { $0["priority"]?.intValue == 1 })
        try store.update(target.id) { $0["priority"] = 9 }
        let changed = "changed: \(target["title"]?.stringValue ?? "") 1 -> 9"
        #expect(
            await Self.eventually { lines.withLock { $0 }.contains(changed) },
            "\(lines.withLock { $0 })")
        #expect(
            await Self.eventually { lines.withLock { $0 }.contains("  /priority: 1 -> 9") },
            "\(lines.withLock { $0 })")
        try store.put("pitch", ["title": "Pitch the tent", "status": "todo", "priority": "high"])
        #expect(
            await Self.eventually {
                lines.withLock { $0 }.contains {
                    $0.hasPrefix("invalid: ") && $0.contains("pitch.json:4:15: at priority")
                }
            },
            "\(lines.withLock { $0 })")
        #expect(lines.withLock { $0 }.contains("now \(items.count) todos"))
    }
}
