import Foundation
import JSONStore
import TestSupport
import Testing

/// The README's shell lines and prose, against what they do: the first minutes run as
/// written on a copy of `data/`, and what a reader copies works where it lands.
@Suite(
    "README's shell lines",
    .enabled(
        if: FileManager.default.isReadableFile(atPath: checkoutRoot.path + "/README.md"),
        "the checkout is not readable by this user"))
struct ReadmeShellTests {
    static func readme() throws -> String {
        try String(contentsOf: checkoutRoot.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The text of the section that starts with `heading`, up to the next `## ` heading.
    static func section(_ heading: String) throws -> Substring {
        let text = try readme()
        guard let start = text.range(of: heading + "\n") else { return "" }
        let rest = text[start.upperBound...]
        return rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
    }

    /// The lines of a section's code blocks of `kind` (```sh, or ``` alone), comments removed.
    static func lines(of section: Substring, kind: String = "sh") -> [String] {
        var lines: [String] = []
        var open: String?  // the kind of the block the line is in, if any
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                open = open == nil ? String(trimmed.dropFirst(3)) : nil
                continue
            }
            guard open == kind else { continue }
            let command = line.split(separator: "#", maxSplits: 1).first ?? ""
            let text = command.trimmingCharacters(in: .whitespaces)
            if !text.isEmpty { lines.append(text) }
        }
        return lines
    }

    @Test(
        "the first minutes run as written: swift run once, the built binary after, on a copy of data/, installed where no ~/.local/bin was"
    )
    func firstMinutes() async throws {
        let lines = Self.lines(of: try Self.section("## Two commands"))
        let invocations = lines.filter { $0.contains("jsonstore ") && !$0.hasPrefix("install") }
        #expect(invocations.count >= 3, "\(lines)")
        // swift run plans its build again when its output moves between a terminal and a
        // pipe: once, on the terminal, then the binary it built.
        #expect(invocations.first?.hasPrefix("swift run -c release jsonstore ") == true)
        for line in invocations.dropFirst() {
            #expect(line.hasPrefix(".build/release/jsonstore "), "\(line)")
        }
        let prose = try Self.readme().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(prose.contains("SwiftPM plans the build again"))
        let install = try #require(lines.first { $0.hasPrefix("install") }, "\(lines)")
        let copy = try #require(lines.first { $0.hasPrefix("cp ") }, "\(lines)")

        // Run in a checkout (a copy of data/ here), with a home that has no ~/.local.
        let scratch = try ReadmeExampleTests.sampleCopy()
        let (path, home) = (scratch.path, scratch.path + "/home")
        #expect(mkdir(home, 0o755) == 0)
        func runnable(_ line: String) -> String {
            line.replacingOccurrences(of: "/tmp/tasks", with: path + "/tasks")
                .replacingOccurrences(of: ".build/release/jsonstore", with: "\"$JSONSTORE\"")
                .replacingOccurrences(of: "swift run -c release jsonstore", with: "\"$JSONSTORE\"")
        }
        let oneShot = [copy, install] + invocations.filter { $0.contains(" set ") }
        for line in oneShot {
            let result = try await JSONStoreBinary.shell(
                "cd '\(path)' && " + runnable(line), environment: ["HOME": home])
            #expect(result.status == 0, "\(line): \(result.stderr)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: home + "/.local/bin/jsonstore"))
        #expect(scratch.readFile("tasks/water-plants.json")?.contains("\"done\"") == true)
        // The sample store itself is as it was.
        #expect(try ReadmeExampleTests.sampleDifferences(in: path + "/data") == [])
    }

    @Test("the mirror example creates the file it then edits with sed")
    func mirrorExampleCreatesItsFile() throws {
        let lines = Self.lines(of: try Self.section("## Beyond one machine"), kind: "")
        let sed = try #require(lines.firstIndex { $0.hasPrefix("sed -i") }, "\(lines)")
        let file = try #require(lines[sed].split(separator: " ").last.map(String.init))
        let directory = (file as NSString).deletingLastPathComponent
        let id = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let creates = lines[..<sed].contains {
            $0.contains("--dir \(directory) put \(id) ") || $0.contains("> \(file)")
        }
        #expect(creates, "nothing before `\(lines[sed])` creates \(file)")
    }

    @Test(
        "the mirror example runs as written: A's sed edit reaches B's directory",
        .enabled(if: EtcdServer.isInstalled, "\(EtcdServer.installHint)"))
    func mirrorExampleRuns() async throws {
        let lines = Self.lines(of: try Self.section("## Beyond one machine"), kind: "")
        let start = try #require(lines.firstIndex { $0.hasPrefix("mkdir -p ~/tasks-a") })
        let sed = try #require(lines.firstIndex { $0.hasPrefix("sed -i") })
        let server = try await blocking { try EtcdServer() }
        let home = try TemporaryStore()
        // The mirrors are the script's jobs, their pids kept as they start, stopped on any
        // exit, a failed line (set -e) too: SIGTERM, then SIGKILL for one still running
        // after 10 s (a mirror stuck in a way no test has seen yet), then waited for.
        var script = """
            set -e
            pids=
            stop() {
              kill $pids 2>/dev/null || true
              for i in $(seq 100); do
                alive=
                for p in $pids; do kill -0 $p 2>/dev/null && alive=1; done
                [ -z "$alive" ] && break
                sleep 0.1
              done
              kill -9 $pids 2>/dev/null || true
              wait
            }
            trap stop EXIT

            """
        for line in lines[start...sed] {
            let runnable = line.replacingOccurrences(of: "jsonstore ", with: "\"$JSONSTORE\" ")
                .replacingOccurrences(of: "127.0.0.1:12379", with: server.endpoint)
            script += runnable + (runnable.hasSuffix("&") ? "\npids=\"$pids $!\"\n" : "\n")
        }
        // Waits for the event with a deadline (30 s), then ends.
        script += """
            for i in $(seq 300); do
              grep -q '"done"' ~/tasks-b/tea.json 2>/dev/null && exit 0
              sleep 0.1
            done
            exit 1
            """
        let result = try await JSONStoreBinary.shell(script, environment: ["HOME": home.path])
        #expect(result.status == 0, "\(script)\n\(result.stderr)")
        #expect(home.readFile("tasks-b/tea.json")?.contains("Make tea") == true)
    }

    @Test("the path dependency says that package: is the checkout folder's name")
    func pathDependency() throws {
        let library = try Self.section("## The library")
        let snippet = Self.lines(of: library, kind: "").joined(separator: "\n")
        #expect(snippet.contains(".package(path: \"../jsonstore\")"))
        let raw = library.components(separatedBy: ".package(path:").dropFirst().first ?? ""
        #expect(raw.contains("the checkout folder's name"), "\(raw.prefix(400))")
    }

    @Test("the performance figures say which were measured with both cores free")
    func performanceConditions() throws {
        let section = try Self.section("## Performance")
        #expect(section.contains("both cores free"))
        #expect(section.contains("`--where`") && section.contains("`--count-by`"), "\(section)")
    }
}

extension ReadmeShellTests {
    @Test("History and undo: the commands run as written, and do what the section says")
    func historyAndUndo() async throws {
        let lines = Self.lines(of: try Self.section("## History and undo"))
        #expect(lines.count == 8, "\(lines)")
        let scratch = try TemporaryStore()
        let copy = scratch.path + "/history"
        let script =
            """
            set -e
            export COLUMNS=200
            jsonstore() { "$JSONSTORE" "$@"; }
            cd '\(checkoutRoot.path)'

            """
            + lines.map { $0.replacing("/tmp/history", with: copy) }.joined(separator: "\n")
            + "\njsonstore --dir '\(copy)' log -n 8"
        let result = try await shell(script, store: scratch)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("status: todo → done"), "\(result.stdout)")
        #expect(result.stdout.contains("first seen"))
        #expect(result.stdout.contains("jsonstore delete  2 items"), "\(result.stdout)")
        let store = try JSONStore(directory: copy)
        #expect(try store.item("backup-photos")?["status"] == "todo")
        #expect(try store.item("buy-coffee") != nil && store.item("cancel-gym") != nil)
        let undone = try store.history().prefix(2)
        #expect(undone.allSatisfy { $0.source.command == "undo" && $0.kind == .created })
    }
}

extension ReadmeShellTests {
    @Test("Schema: the commands run as written, and print what the section shows")
    func schema() async throws {
        let section = try Self.section("## Schema")
        let lines = Self.lines(of: section)
        #expect(lines.count == 6, "\(lines)")
        let scratch = try TemporaryStore()
        let copy = scratch.path + "/tasks"
        // The last two fail on purpose (exit 1): each is run for its output.
        let script =
            """
            export COLUMNS=200
            jsonstore() { "$JSONSTORE" "$@"; }
            cd '\(checkoutRoot.path)'

            """
            + lines.map { $0.replacing("/tmp/tasks", with: copy) + " 2>&1" }.joined(
                separator: "\n")
        let result = try await shell(script, store: scratch)
        let shown = Self.lines(of: section, kind: "").filter { !$0.hasPrefix("$") }
        #expect(shown.count == 3, "\(shown)")
        for line in shown {
            let expected = line.replacing("/tmp/tasks", with: copy)
            #expect(result.stdout.contains(expected), "\(expected)\n\(result.stdout)")
        }
        let store = try JSONStore(directory: copy)
        #expect(try store.item("buy-coffee")?["stauts"] == nil)
        #expect(throws: StoreError.self) { try store.item("water-plants") }
    }
}
