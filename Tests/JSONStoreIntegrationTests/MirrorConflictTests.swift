import Foundation
import Glibc
import TestSupport
import Testing

extension EtcdTests.Mirror {
    @Test("an edit on both sides while one mirror is stopped: one conflict, both kept, resolved")
    func conflictWhileApart() async throws {
        try await blocking {
            let pair = try Self.startedThenApart()
            let mine = Self.task("tea", "done on b")
            try pair.write("b", "tea.json", mine)
            try pair.start("b")
            // etcd accepted a's edit first: it stays the item on both sides.
            #expect(
                pair.converge { _ in pair.text("b", "tea.json")?.contains("done on a") == true })
            let check = try pair.jsonstore("b", ["check"])
            #expect(check.status == 1)
            let lines = check.stdout.split(separator: "\n")
            #expect(lines.count == 1, "one conflict: \(check.stdout)")
            #expect(
                pair.log("b").contains(", 1 conflict") && !pair.log("b").contains("1 conflicts"),
                "the summary counts in English: \(pair.log("b"))")
            #expect(
                lines.first?.hasPrefix("tea: conflict: the version from the mirror on ") == true)
            #expect(
                lines.first?.hasSuffix(
                    " (mine: this machine's edit; theirs: the item, the edit etcd took first)")
                    == true)
            let kept = try #require(
                lines.first.flatMap {
                    $0.components(separatedBy: "kept in ").last?
                        .components(separatedBy: " (mine: ").first
                })
            #expect(
                try String(contentsOfFile: kept, encoding: .utf8) == mine, "b's version is kept")
            #expect(try pair.jsonstore("a", ["check"]).status == 0, "a made no conflicting edit")
            // Restarting raises no conflict that no second writer made.
            #expect(pair.stop("b") == 0)
            try pair.start("b")
            #expect(pair.wait { pair.log("b").components(separatedBy: "in sync").count == 3 })
            #expect(try pair.jsonstore("b", ["check"]).stdout.split(separator: "\n").count == 1)
            // Keeping b's version (mine, on b) goes through etcd to a.
            let resolved = try pair.jsonstore("b", ["resolve", "tea", "--keep", "mine"])
            #expect(resolved.status == 0, "\(resolved.stderr)")
            #expect(pair.converge { _ in pair.text("a", "tea.json") == mine })
            #expect(try pair.jsonstore("b", ["check"]).status == 0)
        }
    }

    @Test("a deletion while apart stays a deletion; an edit while apart arrives")
    func deletionWhileApart() async throws {
        try await blocking {
            let pair = try Self.started()
            #expect(pair.stop("b") == 0)
            try pair.shell("a", "rm bike.json")
            #expect(
                pair.wait {
                    (try? pair.server.etcdctl(["get", "tasks/bike"]))?.output.isEmpty == true
                })
            try pair.write("b", "taxes.json", Self.task("taxes", "done on b"))
            try pair.start("b")
            #expect(
                pair.converge { items in
                    items["bike.json"] == nil
                        && pair.text("a", "taxes.json")?.contains("done on b") == true
                }, "\(pair.log("b"))")
            #expect(pair.items("a").count == 2, "bike is not resurrected")
            #expect(try pair.jsonstore("b", ["check"]).status == 0)
        }
    }

    @Test("a mirror killed with SIGKILL mid-burst and restarted loses and duplicates nothing")
    func killedMidBurst() async throws {
        try await blocking {
            let pair = try Self.started()
            var expected: [String: String] = [:]
            for round in 0..<6 {
                for n in 0..<40 {
                    let id = "burst-\(n % 25)"
                    let text = Self.task(id, "round \(round) edit \(n)")
                    try pair.write("a", "\(id).json", text)
                    expected[id] = text
                    if n == 13 + round { pair.stop("a", signal: SIGKILL) }
                }
                if round % 2 == 1 { try pair.shell("a", "rm burst-\(round).json") }
                if round % 2 == 1 { expected["burst-\(round)"] = nil }
                try pair.start("a")
            }
            #expect(
                pair.converge(40) { items in
                    expected.allSatisfy { items["\($0.key).json"] == Data($0.value.utf8) }
                        && items.count == expected.count + 3
                }, "\(pair.log("a"))")
            let check = try pair.jsonstore("a", ["check"])
            #expect(
                check.status == 0,
                "no conflict without a second writer: \(check.stdout) \(pair.log("a"))")
            #expect(try pair.jsonstore("b", ["check"]).status == 0)
        }
    }

    @Test(
        "killed right before or right after a write, before its record: nothing lost, no conflict",
        arguments: ["etcd", "files", "etcd-before", "files-before"])
    func killedAroundWrite(point: String) async throws {
        try await blocking {
            let pair = try Self.started()
            // `etcd…`: a dies sending a's edit, and its file is edited again while it is
            // down: that edit goes out. `files…`: b dies writing a's edit into b: a's edit
            // must still arrive, not be undone. (b edited while down, after the write, would
            // be a conflict, both kept: that is the README's "cannot promise".)
            let intoFiles = point.hasPrefix("files")
            let victim = intoFiles ? "b" : "a"
            #expect(pair.stop(victim) == 0)
            try pair.start(victim, killedAt: (point, 1))
            #expect(pair.wait { pair.log(victim).components(separatedBy: "in sync").count >= 3 })
            let first = Self.task("tea", "first")
            try pair.write("a", "tea.json", first)
            #expect(pair.killedItself(victim), "\(pair.log(victim))")
            var last = first
            if !intoFiles {
                last = Self.task("tea", "second, on \(victim)")
                try pair.write(victim, "tea.json", last)
            }
            try pair.start(victim)
            #expect(
                pair.converge { _ in
                    pair.text("a", "tea.json") == last && pair.text("b", "tea.json") == last
                }, "\(pair.log(victim))")
            for side in ["a", "b"] {
                let check = try pair.jsonstore(side, ["check"])
                #expect(check.status == 0, "no conflict on \(side): \(check.stdout)")
            }
        }
    }

    @Test(
        "killed right after writing a pulled file, etcd moving on before the restart: no conflict")
    func killedAfterPullWhileEtcdMoves() async throws {
        try await blocking {
            let pair = try Self.started()
            #expect(pair.stop("b") == 0)
            try pair.start("b", killedAt: ("files", 1))
            #expect(pair.wait { pair.log("b").components(separatedBy: "in sync").count >= 3 })
            try pair.write("a", "tea.json", Self.task("tea", "first"))
            #expect(pair.killedItself("b"), "\(pair.log("b"))")
            #expect(pair.text("b", "tea.json")?.contains("first") == true, "b wrote it, then died")
            // etcd moves on while b is down.
            let last = Self.task("tea", "second, while b was down")
            try pair.write("a", "tea.json", last)
            #expect(
                pair.wait {
                    (try? pair.server.etcdctl(["get", "tasks/tea"]))?.output.contains("second")
                        == true
                })
            try pair.start("b")
            #expect(
                pair.converge { _ in pair.text("b", "tea.json") == last }, "\(pair.log("b"))")
            let check = try pair.jsonstore("b", ["check"])
            #expect(check.status == 0, "b recognises its own write: \(check.stdout)")
        }
    }

    @Test("a conflict of an item whose id is 200 bytes is kept, under a name that fits")
    func longIDConflict() async throws {
        try await blocking {
            let pair = try Self.started()
            let id = String(repeating: "a", count: 200)
            try pair.write("a", "\(id).json", Self.task("long"))
            #expect(pair.converge { $0["\(id).json"] != nil })
            #expect(pair.stop("b") == 0)
            try pair.write("a", "\(id).json", Self.task("long", "done on a"))
            #expect(
                pair.wait {
                    (try? pair.server.etcdctl(["get", "tasks/\(id)"]))?.output.contains(
                        "done on a") == true
                })
            let mine = Self.task("long", "done on b")
            try pair.write("b", "\(id).json", mine)
            try pair.start("b")
            #expect(
                pair.converge { _ in
                    pair.text("b", "\(id).json")?.contains("done on a") == true
                }, "\(pair.log("b"))")
            let check = try pair.jsonstore("b", ["check"])
            #expect(check.status == 1)
            #expect(
                check.stdout.hasPrefix("\(id): conflict: the version from the mirror on "),
                "\(check.stdout)")
            let kept = try #require(
                check.stdout.components(separatedBy: "kept in ").last?
                    .components(separatedBy: " (mine: ").first)
            #expect(try String(contentsOfFile: kept, encoding: .utf8) == mine)
            let resolved = try pair.jsonstore("b", ["resolve", id, "--keep", "mine"])
            #expect(resolved.status == 0, "\(resolved.stderr)")
            #expect(pair.converge { _ in pair.text("a", "\(id).json") == mine })
        }
    }
}
