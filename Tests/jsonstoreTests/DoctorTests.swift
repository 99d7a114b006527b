import Foundation
import JSONStore
import TestSupport
import Testing

/// `jsonstore doctor`: what it finds, and each problem with its fix and exit status 1.
@Suite("jsonstore doctor")
struct DoctorTests {
    @Test("a healthy directory: how it is watched, inotify's use, the items; exit 0")
    func healthy() async throws {
        let temp = try TemporaryStore.tasks()
        let path = temp.path
        let result = try await blocking { try JSONStoreBinary.run(["--dir", path, "doctor"]) }
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "store     \(path) (a directory)")
        #expect(lines.contains { $0.hasPrefix("watching  inotify (on ") })
        #expect(lines.contains { $0.hasPrefix("inotify   watches ") && $0.contains(" instances ") })
        #expect(lines.contains("items     3, 0 invalid, 0 conflicts"))
        #expect(lines.last == "no problems found")
    }

    @Test("invalid files, conflicts and a missing directory are problems with their fix")
    func problems() async throws {
        let temp = try TemporaryStore.tasks()
        try temp.writeFile("broken.json", "{\n  \"title\": \n")
        try temp.writeFile("tea.sync-conflict-20261201-120000-ABCDEF7.json", "{}\n")
        let path = temp.path
        let result = try await blocking { try JSONStoreBinary.run(["--dir", path, "doctor"]) }
        #expect(result.status == 1)
        #expect(result.stdout.contains("items     3, 1 invalid, 1 conflict\n"))
        #expect(
            result.stdout.contains(
                "problem: 1 invalid file\n  fix: jsonstore check lists each with its line, column and reason\n"
            ))
        #expect(
            result.stdout.contains(
                "problem: 1 conflict\n  fix: jsonstore check lists them; jsonstore resolve ID --keep mine|theirs|FILE ends one\n"
            ))
        let missing = try await blocking {
            try JSONStoreBinary.run(["--dir", path + "/nope", "doctor"])
        }
        #expect(missing.status == 1)
        #expect(
            missing.stdout.contains("problem: \(path)/nope: the store directory does not exist"))
    }

    @Test("--memory: the store's memory by what holds it, per item, and the process's")
    func memory() async throws {
        let temp = try TemporaryStore()
        for k in 0..<200 { try temp.writeFile("item-\(k).json", "{\"title\": \"item \(k)\"}\n") }
        let path = temp.path
        let result = try await blocking {
            try JSONStoreBinary.run(["--dir", path, "doctor", "--memory"])
        }
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let summary = try #require(lines.first { $0.hasPrefix("memory    ") })
        #expect(summary.hasPrefix("memory    200 items, "), "\(summary)")
        #expect(summary.contains(" an item, ") && summary.hasSuffix("x the files"))
        for row in ["bytes", "index", "ids", "invalid", "heads", "results"] {
            #expect(
                lines.contains { $0.hasPrefix("          \(row) ") && $0.contains(" an item ") },
                "\(row)")
        }
        #expect(lines.contains { $0.hasPrefix("process   ") && $0.contains(" resident, ") })
        #expect(lines.last == "no problems found")
        // Without the flag, no memory section.
        let plain = try await blocking { try JSONStoreBinary.run(["--dir", path, "doctor"]) }
        #expect(!plain.stdout.contains("memory    "))
    }
}
