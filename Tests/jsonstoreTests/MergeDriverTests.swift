import Foundation
import JSONStore
import TestSupport
import Testing

@testable import JSONStoreCommand

/// `jsonstore merge-driver`: the three-way merge by member, and the driver inside a real
/// `git merge`, where git's own line merge would conflict on neighbouring members.
@Suite("The merge driver")
struct MergeDriverTests {
    func object(_ text: String) -> JSONObject {
        guard case .object(let object)? = try? JSONReader().read(Array(text.utf8)) else {
            return JSONObject()
        }
        return object
    }

    @Test("changes to different members merge, recursively; the same member twice conflicts")
    func merge() {
        let base = object(
            #"{"title": "Tea", "status": "todo", "owner": {"name": "ann", "team": "a"}}"#)
        let ours = object(
            #"{"title": "Green tea", "status": "todo", "owner": {"name": "ann", "team": "b"}}"#)
        let theirs = object(
            #"{"status": "done", "owner": {"name": "bo", "team": "a"}, "title": "Tea", "due": 1}"#)
        let (merged, conflicts) = ItemMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(conflicts.isEmpty)
        #expect(merged.keys == ["title", "status", "owner", "due"])  // ours' order, then theirs'
        #expect(merged["title"] == "Green tea" && merged["status"] == "done")
        #expect(merged["owner"] == .object(["name": "bo", "team": "b"]))
        // A removal on one side stands; the same change on both is no conflict.
        let removed = ItemMerge.merge(
            base: object(#"{"a": 1, "b": 2}"#), ours: object(#"{"a": 1}"#),
            theirs: object(#"{"a": 1, "b": 2, "c": 3}"#))
        #expect(removed.merged == object(#"{"a": 1, "c": 3}"#) && removed.conflicts.isEmpty)
        let clash = ItemMerge.merge(
            base: object(#"{"s": "todo", "tags": [1]}"#),
            ours: object(#"{"s": "done", "tags": [1, 2]}"#),
            theirs: object(#"{"s": "doing", "tags": [1, 3]}"#))
        #expect(clash.conflicts.map(\.path) == [["s"], ["tags"]])
        let marked = ItemMerge.marked(
            clash.merged, theirs: object(#"{"s": "doing", "tags": [1, 3]}"#),
            conflicts: clash.conflicts, ours: "ours", other: "theirs")
        #expect(
            marked.contains(
                "<<<<<<< ours\n  \"s\": \"done\",\n=======\n  \"s\": \"doing\",\n>>>>>>> theirs"))
    }

    @Test(
        "40,000 members: each side's change merged, one conflict marked, in linear time",
        .timeLimit(.minutes(1)))
    func manyMembers() {
        // Quadratic before (27 s in a release build, far beyond the limit in a debug one).
        let count = 40_000
        // Read, as the driver reads its files (adding members one by one is quadratic).
        let base = object(
            "{" + (0..<count).map { "\"m\($0)\": \($0)" }.joined(separator: ",") + "}")
        var ours = base
        var theirs = base
        ours["m0"] = "ours"
        theirs["m39999"] = "theirs"
        ours["m20000"] = "ours"
        theirs["m20000"] = "theirs"
        theirs["added"] = true
        let (merged, conflicts) = ItemMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(merged.count == count + 1)
        #expect(merged["m0"] == "ours" && merged["m39999"] == "theirs" && merged["added"] == true)
        #expect(conflicts.map(\.path) == [["m20000"]])
        let marked = ItemMerge.marked(
            merged, theirs: theirs, conflicts: conflicts, ours: "ours", other: "theirs")
        #expect(
            marked.contains(
                "<<<<<<< ours\n  \"m20000\": \"ours\",\n=======\n  \"m20000\": \"theirs\",\n>>>>>>> theirs"
            ))
    }

    /// Runs `git` in `directory`; returns its status.
    @discardableResult
    func git(_ arguments: [String], in directory: String) async throws -> Int32 {
        try await blocking { try Self.git(arguments, in: directory) }
    }

    static func git(_ arguments: [String], in directory: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = [
            "HOME": directory, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
            "PATH": "/usr/bin:/bin",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test(
        "inside a real git merge: neighbouring members merge; the same member is a conflict",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is not installed"
        ))
    func gitMerge() async throws {
        let temp = try TemporaryStore()
        let dir = temp.path
        let binary = HelperProcess.buildDirectory.appendingPathComponent("jsonstore").path
        try await git(["init", "-q", "-b", "main"], in: dir)
        try temp.writeFile(".gitattributes", "*.json merge=jsonstore\n")
        try await git(
            ["config", "merge.jsonstore.driver", "\(binary) merge-driver %O %A %B %P"], in: dir)
        let base = "{\n  \"title\": \"Make tea\",\n  \"status\": \"todo\",\n  \"priority\": 2\n}\n"
        try temp.writeFile("tea.json", base)
        try await git(["add", "."], in: dir)
        try await git(["commit", "-qm", "base"], in: dir)
        try await git(["checkout", "-qb", "other"], in: dir)
        try temp.writeFile("tea.json", base.replacingOccurrences(of: "todo", with: "done"))
        try await git(["commit", "-qam", "theirs: status"], in: dir)
        try await git(["checkout", "-q", "main"], in: dir)
        try temp.writeFile(
            "tea.json", base.replacingOccurrences(of: "Make tea", with: "Make green tea"))
        try await git(["commit", "-qam", "ours: title"], in: dir)
        #expect(try await git(["merge", "-q", "--no-edit", "other"], in: dir) == 0)
        let merged = try #require(try temp.store.item("tea"))
        #expect(merged["title"] == "Make green tea" && merged["status"] == "done")
        #expect(
            (temp.readFile("tea.json") ?? "").hasPrefix("{\n  \"title\": \"Make green tea\",\n"))
        // Both change the status differently: git reports the conflict, and the file says
        // what each side wanted, an invalid file until it is resolved.
        try await git(["checkout", "-qb", "again"], in: dir)
        try temp.writeFile(
            "tea.json",
            (temp.readFile("tea.json") ?? "").replacingOccurrences(of: "done", with: "doing"))
        try await git(["commit", "-qam", "theirs: doing"], in: dir)
        try await git(["checkout", "-q", "main"], in: dir)
        try temp.writeFile(
            "tea.json",
            (temp.readFile("tea.json") ?? "").replacingOccurrences(of: "done", with: "dropped"))
        try await git(["commit", "-qam", "ours: dropped"], in: dir)
        #expect(try await git(["merge", "-q", "--no-edit", "again"], in: dir) != 0)
        let text = (temp.readFile("tea.json") ?? "")
        #expect(
            text.contains(
                "<<<<<<< ours\n  \"status\": \"dropped\",\n=======\n  \"status\": \"doing\","),
            "\(text)")
        do {
            _ = try temp.store.item("tea")
            Issue.record("a file with conflict markers is an item")
        } catch {
            #expect(error.description.contains("git conflict markers"), "\(error)")
            #expect(error.line == 3)  // "<<<<<<< ours", after "{" and the title
        }
    }

    @Test("the merged file keeps OURS' mode: 0600 stays 0600")
    func keepsMode() async throws {
        let temp = try TemporaryStore()
        let write = { (name: String, text: String) in try temp.writeFile(name, text) }
        try write("base", "{\n  \"a\": 1,\n  \"b\": 1\n}\n")
        try write("ours", "{\n  \"a\": 2,\n  \"b\": 1\n}\n")
        try write("theirs", "{\n  \"a\": 1,\n  \"b\": 2\n}\n")
        let ours = temp.path + "/ours"
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: ours)
        let run = try await JSONStoreBinary.run(
            ["merge-driver", temp.path + "/base", ours, temp.path + "/theirs"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(temp.readFile("ours")?.contains("\"b\": 2") == true)
        let mode = try FileManager.default.attributesOfItem(atPath: ours)[.posixPermissions]
        #expect((mode as? Int) == 0o600, "\(String(describing: mode))")
    }
}
