import Foundation
import JSONStore
import TestSupport
import Testing

/// Conflicts through the command: `check` lists them, `resolve` ends them, and the
/// change lines and the NDJSON stream report them as they come and go.
@Suite("Conflicts in the command")
struct ConflictCommandTests {
    static let copy = "tea (Ann's conflicted copy 2026-12-01).json"

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
                bike: conflict: the version from a merge's backup, kept in \(path)/bike.json.orig
                tea: conflict: the version from Dropbox (Ann) on 2026-12-01, kept in \(path)/\(Self.copy)

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
        let mine = try await blocking {
            try JSONStoreBinary.run(["--dir", path, "resolve", "bike", "--keep", "mine"])
        }
        #expect(mine.status == 0)
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
