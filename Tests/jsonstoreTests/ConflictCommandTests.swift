import Foundation
import JSONStore
import TestSupport
import Testing

/// Conflicts through the command: `check` lists them, `resolve` ends them, and the
/// change lines and the NDJSON stream report them as they come and go.
@Suite("Conflicts in the command")
struct ConflictCommandTests {
    static let copy = "tea (Ann's conflicted copy 2026-12-01).json"
    static let mirrors = "tea.jsonstore-conflict-20261201-120000-laptop.json"
    static let untold =
        "mine or theirs cannot be told from another tool's copy: keep a version with --keep FILE"

    @Test("on a mirror's conflict mine keeps this machine's edit, theirs the item; else FILE")
    func mineAndTheirs() async throws {
        let temp = try TemporaryStore.tasks()
        let path = temp.path
        let edit = "{\n  \"title\": \"Tea, edited here\"\n}\n"
        try temp.writeFile(Self.mirrors, edit)
        let check = try await blocking { try JSONStoreBinary.run(["--dir", path, "check"]) }
        #expect(
            check.stdout
                == "tea: conflict: the version from the mirror on laptop at 2026-12-01 12:00:00 UTC, kept in \(path)/\(Self.mirrors) (mine: this machine's edit; theirs: the item, the edit etcd took first)\n"
        )
        let mine = try await blocking {
            try JSONStoreBinary.run(["--dir", path, "resolve", "tea", "--keep", "mine"])
        }
        #expect(mine.status == 0, "\(mine.stderr)")
        #expect(temp.readFile("tea.json") == edit, "this machine's edit is kept")
        #expect(temp.readFile(Self.mirrors) == nil)
        // theirs: the item as it is.
        let bike = "bike.jsonstore-conflict-20261201-120000-laptop.json"
        try temp.writeFile(bike, edit)
        let before = temp.readFile("bike.json")
        let theirs = try await blocking {
            try JSONStoreBinary.run(["--dir", path, "resolve", "bike", "--keep", "theirs"])
        }
        #expect(theirs.status == 0, "\(theirs.stderr)")
        #expect(temp.readFile("bike.json") == before)
        #expect(temp.readFile(bike) == nil)
        // Another tool's copy cannot tell: the versions are listed, nothing changes.
        try temp.writeFile(Self.copy, "{\n  \"title\": \"Ann's tea\"\n}\n")
        for word in ["mine", "theirs"] {
            let refused = try await blocking {
                try JSONStoreBinary.run(["--dir", path, "resolve", "tea", "--keep", word])
            }
            #expect(refused.status == 64)
            #expect(
                refused.stderr == """
                    jsonstore: tea: which version is \(word) cannot be told (another tool's copy):
                    jsonstore:   the item: \(path)/tea.json
                    jsonstore:   the version from Dropbox (Ann) on 2026-12-01: \(path)/\(Self.copy)
                    jsonstore: keep one with --keep FILE; nothing was changed (see 'jsonstore resolve --help')

                    """)
            #expect(temp.readFile("tea.json") == edit && temp.readFile(Self.copy) != nil)
        }
    }

    @Test("check lists each conflict and exits 1; resolve with a merged FILE ends them")
    func checkAndResolve() async throws {
        let temp = try TemporaryStore.tasks()
        try temp.writeFile(Self.copy, "{\n  \"title\": \"Ann's tea\"\n}\n")
        try temp.writeFile("bike.json.orig", "{\n  \"title\": \"old bike\"\n}\n")
        let path = temp.path
        let check = try await blocking { try JSONStoreBinary.run(["--dir", path, "check"]) }
        #expect(check.status == 1)
        #expect(
            check.stdout == """
                bike: conflict: the version from a merge's backup, kept in \(path)/bike.json.orig (\(Self.untold))
                tea: conflict: the version from Dropbox (Ann) on 2026-12-01, kept in \(path)/\(Self.copy) (\(Self.untold))

                """)
        #expect(check.stderr.contains("3 files, 0 invalid, 2 conflicts"))
        let list = try await blocking {
            try JSONStoreBinary.run(["--dir", path, "list", "-o", "ids"])
        }
        #expect(list.stdout == "bike\ntaxes\ntea\n", "copies are no items")
        // A merged FILE that is not valid JSON: the error names FILE, at its line and
        // column, and nothing changes.
        try temp.writeFile("broken.txt", "{\n  \"title\": \"Tea\",\n}\n")
        let broken = try await JSONStoreBinary.run([
            "--dir", path, "resolve", "tea", "--keep", path + "/broken.txt",
        ])
        #expect(broken.status == 1)
        #expect(
            broken.stderr.hasPrefix("jsonstore: \(path)/broken.txt:2:17: trailing comma"),
            "\(broken.stderr)")
        #expect(temp.readFile(Self.copy) != nil)
        try temp.writeFile("merged.txt", "{\n  \"title\": \"Tea for two\"\n}\n")
        let resolved = try await blocking {
            try JSONStoreBinary.run([
                "--dir", path, "resolve", "tea", "--keep", path + "/merged.txt",
            ])
        }
        #expect(resolved.status == 0, "\(resolved.stderr)")
        #expect(temp.readFile("tea.json") == "{\n  \"title\": \"Tea for two\"\n}\n")
        #expect(temp.readFile(Self.copy) == nil)
        let refused = try await blocking {
            try JSONStoreBinary.run(["--dir", path, "resolve", "tea", "--keep", "mine"])
        }
        #expect(refused.status == 1 && refused.stderr.contains("no conflicts of \"tea\""))
        // A merge's backup cannot tell whose it is: mine is refused, the item kept by name.
        let mine = try await blocking {
            try JSONStoreBinary.run(["--dir", path, "resolve", "bike", "--keep", "mine"])
        }
        #expect(mine.status == 64)
        #expect(temp.readFile("bike.json.orig") != nil)
        let item = try await blocking {
            try JSONStoreBinary.run([
                "--dir", path, "resolve", "bike", "--keep", path + "/bike.json",
            ])
        }
        #expect(item.status == 0, "\(item.stderr)")
        #expect(
            try await blocking { try JSONStoreBinary.run(["--dir", path, "check"]) }.status == 0)
    }

    @Test(
        "the change lines and the stream report a conflict coming and going",
        .timeLimit(.minutes(1)))
    func followed() async throws {
        let temp = try TemporaryStore.tasks()
        let path = temp.path
        for json in [false, true] {
            let seen = try await blocking { () -> [String] in
                let running = try JSONStoreBinary.start(
                    ["--dir", path, "list", "--follow"] + (json ? ["--json"] : ["-o", "ids"]))
                defer { running.stop() }
                var seen: [String] = []
                func expect(_ wanted: @escaping (String) -> Bool) {
                    seen.append(running.reader.next(until: wanted, within: 20) ?? "(timed out)")
                }
                expect { json ? $0.contains("\"conflicts\":[]") : $0 == "tea" }
                try "{\n  \"title\": \"Ann's tea\"\n}\n".write(
                    toFile: path + "/" + Self.copy, atomically: false, encoding: .utf8)
                expect {
                    json
                        ? $0.contains(
                            #""conflicts":[{"id":"tea","file":"tea (Ann's conflicted copy 2026-12-01).json","origin":"Dropbox (Ann) on 2026-12-01"}]"#
                        )
                        : $0
                            == "CONFLICT tea: the version from Dropbox (Ann) on 2026-12-01, kept in \(path)/\(Self.copy)"
                }
                try FileManager.default.removeItem(atPath: path + "/" + Self.copy)
                expect {
                    json
                        ? $0.contains(#""resolvedConflicts":[{"id":"tea""#)
                        : $0 == "RESOLVED \(Self.copy)"
                }
                return seen
            }
            #expect(!seen.contains("(timed out)"), "json \(json): \(seen)")
        }
    }
}
