import Foundation
import JSONStore
import TestSupport
import Testing

/// `jsonstore log`: the journal as a table, as JSON, by operation, and its filters, after
/// writes by the command and edits by hand.
@Suite("log: the history as the command shows it")
struct LogCommandTests {
    /// A store where `put`, `set`, a hand edit and a two-id `delete` happened, in that order.
    func history() async throws -> TemporaryStore {
        let temp = try TemporaryStore()
        var result = try await jsonstore(
            temp, ["put", "tea"],
            stdin: #"{"title": "Make tea", "status": "open", "tags": ["home"]}"#)
        #expect(result.status == 0, "\(result.stderr)")
        result = try await jsonstore(temp, ["put", "bike"], stdin: #"{"title": "Fix the bike"}"#)
        result = try await jsonstore(
            temp, ["set", "tea", "status=done", "tags:=[\"home\",\"urgent\"]"])
        #expect(result.status == 0, "\(result.stderr)")
        // By hand, while nothing watches: found by the next write, recorded as late.
        try temp.writeFile("bike.json", "{\"title\": \"Fix the bike\", \"status\": \"open\"}\n")
        result = try await jsonstore(temp, ["delete", "tea", "bike"])
        #expect(result.status == 0, "\(result.stderr)")
        return temp
    }

    @Test("the table: a line per change, newest first, with who made it and what changed")
    func table() async throws {
        let temp = try await history()
        let result = try await jsonstore(temp, ["log"], environment: ["COLUMNS": "200"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("REV  TIME") == true, "\(result.stdout)")
        #expect(lines.count == 7, "\(result.stdout)")
        let words = lines.dropFirst().map {
            $0.split(separator: " ", maxSplits: 4).map(String.init)
        }
        #expect(words.map { $0[0] } == ["6", "5", "4", "3", "2", "1"])
        #expect(words.map { $0[3] } == ["bike", "tea", "bike", "tea", "bike", "tea"])
        #expect(lines[3].contains("other (late)") && lines[3].contains("status: +open"))
        #expect(lines[4].contains("jsonstore set"))
        #expect(lines[4].contains("status: open → done") && lines[4].contains("tags: +urgent"))
        #expect(lines[1].contains("jsonstore delete") && lines[2].contains("jsonstore delete"))
    }

    @Test("-o json: revision, time, id, kind, source, op, patch and value; -n and --since")
    func json() async throws {
        let temp = try await history()
        var result = try await jsonstore(temp, ["log", "tea", "-o", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["revision"] as? Int } == [5, 3, 1])
        #expect(entries.map { $0["kind"] as? String } == ["deleted", "modified", "created"])
        #expect(entries.map { $0["command"] as? String } == ["delete", "set", "put"])
        #expect(entries.allSatisfy { ($0["time"] as? String)?.hasSuffix("Z") == true })
        let patch = try #require(entries[1]["patch"] as? [[String: Any]])
        #expect(patch.map { $0["path"] as? String } == ["/status", "/tags/1"])
        #expect((entries[2]["value"] as? [String: Any])?["title"] as? String == "Make tea")
        // -n: the newest; --since REV: after it; --since an age or a date.
        result = try await jsonstore(temp, ["log", "-n", "2", "-o", "ndjson"])
        #expect(result.stdout.split(separator: "\n").count == 2)
        #expect(result.stdout.hasPrefix(#"{"revision":6,"#))
        result = try await jsonstore(temp, ["log", "--since", "4", "-o", "ndjson"])
        #expect(result.stdout.split(separator: "\n").count == 2)
        result = try await jsonstore(temp, ["log", "--since", "1h", "-o", "ndjson"])
        #expect(result.stdout.split(separator: "\n").count == 6)
        result = try await jsonstore(temp, ["log", "--since", "2999-01-01", "-o", "ndjson"])
        #expect(result.status == 0 && result.stdout.isEmpty)
        result = try await jsonstore(temp, ["log", "--since", "yesterday"])
        #expect(result.status == 64 && result.stderr.contains("--since takes a revision"))
    }

    @Test("--ops: a multi-id delete is one operation of 2 items")
    func operations() async throws {
        let temp = try await history()
        let result = try await jsonstore(temp, ["log", "--ops"], environment: ["COLUMNS": "200"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(result.stdout)")
        #expect(lines[1].hasPrefix("5-6 ") && lines[1].contains("2 items"), "\(result.stdout)")
        #expect(lines[1].contains("tea, bike"))
        #expect(lines[2].contains("other (late)") && lines[2].contains("1 item"))
    }

    @Test("an invalid id: log refuses it, naming it")
    func invalidID() async throws {
        let temp = try TemporaryStore()
        let result = try await jsonstore(temp, ["log", "no/such"])
        #expect(result.status != 0 && result.stderr.contains("no/such"))
    }
}

/// `show --at`, `diff` and `undo`: versions, member changes and guarded reverts, through the
/// command.
@Suite("show, diff and undo")
struct UndoCommandTests {
    @Test("show --at, diff and diff --patch, undo, and a refused undo that says why")
    func showDiffUndo() async throws {
        let temp = try TemporaryStore()
        _ = try await jsonstore(
            temp, ["put", "tea"], stdin: #"{"title": "Make tea", "status": "open"}"#)
        _ = try await jsonstore(temp, ["set", "tea", "status=done"])  // 2
        _ = try await jsonstore(temp, ["set", "tea", "title=Green tea"])  // 3
        var result = try await jsonstore(temp, ["show", "tea", "--at", "1"])
        #expect(result.stdout == "id: tea\ntitle: Make tea\nstatus: open\n", "\(result.stderr)")
        result = try await jsonstore(temp, ["show", "tea", "--at", "2", "--json"])
        #expect(result.stdout.contains(#""status": "done""#))
        result = try await jsonstore(temp, ["diff", "tea"])
        #expect(result.stdout == "title: Make tea → Green tea\n")
        result = try await jsonstore(temp, ["diff", "tea", "1", "--patch"])
        let patch =
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(patch?.map { $0["path"] as? String } == ["/title", "/status"])
        result = try await jsonstore(temp, ["undo", "tea", "2"])
        #expect(
            result.status == 0 && result.stdout == "undone: tea (revision 4)\n", "\(result.stderr)")
        #expect(temp.readFile("tea.json")?.contains(#""status": "open""#) == true)
        #expect(temp.readFile("tea.json")?.contains("Green tea") == true)
        // Undoing 2 again: its member changed since (by the undo itself).
        let before = temp.readFile("tea.json")
        result = try await jsonstore(temp, ["undo", "tea", "2"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not undone: /status changed since 2"), "\(result.stderr)")
        #expect(temp.readFile("tea.json") == before)
        result = try await jsonstore(
            temp, ["log", "tea", "-n", "1"], environment: ["COLUMNS": "200"])
        #expect(result.stdout.contains("jsonstore undo"))
    }

    @Test("undo --op brings back a multi-id delete in one operation")
    func undoOperation() async throws {
        let temp = try TemporaryStore.tasks()
        var result = try await jsonstore(temp, ["delete", "tea", "bike"])
        #expect(result.status == 0)
        // The files were written by hand: log records them first, as seen late.
        result = try await jsonstore(temp, ["log", "--ops", "-o", "json"])
        let operations = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let delete = try #require(operations.first { $0["command"] as? String == "delete" })
        #expect(delete["ids"] as? [String] == ["tea", "bike"])
        let op = try #require(delete["op"] as? String)
        result = try await jsonstore(temp, ["undo", "--op", op])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Set(try temp.itemFiles()) == ["tea.json", "bike.json", "taxes.json"])
        #expect(temp.readFile("tea.json")?.contains("Make tea") == true)
    }
}

/// A journal damaged by hand, as `check` and `doctor` tell it.
@Suite("The journal's damage in check and doctor")
struct HistoryDamageCommandTests {
    @Test("check and doctor name the damaged file and byte; writes and log go on")
    func damaged() async throws {
        let temp = try TemporaryStore()
        _ = try await jsonstore(temp, ["put", "tea"], stdin: #"{"title": "Make tea"}"#)
        let segment = temp.path + "/.jsonstore/journal/00000000000000000001.jsonl"
        let size = try #require(
            FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int)
        let handle = try #require(FileHandle(forWritingAtPath: segment))
        handle.seekToEndOfFile()
        handle.write(Data("\u{1B}[31mgarbage\n".utf8))
        handle.closeFile()
        var result = try await jsonstore(temp, ["set", "tea", "status=done"])
        #expect(result.status == 0, "\(result.stderr)")
        result = try await jsonstore(temp, ["check"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(segment): at byte \(size): not JSON"), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}"))
        result = try await jsonstore(temp, ["doctor"])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("history   2 changes (revisions 1 to 2)"), "\(result.stdout)")
        #expect(result.stdout.contains("problem: the history's journal is damaged: \(segment)"))
        result = try await jsonstore(temp, ["log", "tea", "-o", "ndjson"])
        #expect(result.stdout.split(separator: "\n").count == 2)
    }
}

/// What the command loads: `log`'s dates come from the C library, so no command pays for
/// Foundation's ICU (6 MiB more resident, for every run, when it crept in).
@Suite("The command's libraries")
struct CommandLibraryTests {
    @Test("the command links Foundation's essentials only, never its ICU")
    func essentialsOnly() async throws {
        let result = try await blocking { try JSONStoreBinary.shell("ldd \"$JSONSTORE\"") }
        #expect(result.stdout.contains("libFoundationEssentials"), "\(result.stdout)")
        #expect(!result.stdout.contains("libFoundationInternationalization"), "\(result.stdout)")
        #expect(!result.stdout.contains("ICU"), "\(result.stdout)")
        #expect(!result.stdout.contains("libFoundation.so"), "\(result.stdout)")
    }
}

/// The global options that set the history: none kept, and the retention.
@Suite("The history's options")
struct HistoryOptionTests {
    @Test(
        "--no-history keeps none; --history-max-bytes and -age are taken; bad values are usage errors"
    )
    func options() async throws {
        let temp = try TemporaryStore()
        #expect(try await jsonstore(temp, ["--no-history", "set", "a", "title=A"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: temp.path + "/.jsonstore/journal"))
        var result = try await jsonstore(temp, ["log", "--no-history"])
        #expect(
            result.status == 1 && result.stderr.contains("keeps no history"), "\(result.stderr)")
        #expect(
            try await jsonstore(temp, ["--history-max-bytes", "1K", "set", "a", "title=B"]).status
                == 0)
        result = try await jsonstore(
            temp, ["log", "a", "-o", "ndjson", "--history-max-age", "30d"])
        #expect(result.status == 0 && result.stdout.split(separator: "\n").count == 2)
        for bad in [
            ["--history-max-bytes", "2x"], ["--history-max-age", "soon"],
            ["--history-max-age", "0d"],
        ] {
            result = try await jsonstore(temp, bad + ["log"])
            #expect(result.status == 64, "\(bad): \(result.stderr)")
        }
    }
}
