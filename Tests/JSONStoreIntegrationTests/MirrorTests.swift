import Foundation
import Glibc
import TestSupport
import Testing

extension EtcdTests {
    /// `jsonstore mirror`: two directories kept equal through one real etcd, each by a
    /// mirror process of the built binary, edited by real tools on both sides.
    @Suite("Mirror: two directories through one etcd", .timeLimit(.minutes(3)))
    struct Mirror {
        static func task(_ title: String, _ status: String = "todo") -> String {
            "{\n  \"title\": \"\(title)\",\n  \"status\": \"\(status)\"\n}\n"
        }

        /// `started()`, then `b`'s mirror stopped and `tea` marked done on `a`, until etcd
        /// holds that edit: the two sides apart, for a conflict.
        static func startedThenApart() throws -> MirrorPair {
            let pair = try started()
            #expect(pair.stop("b") == 0)
            try pair.write("a", "tea.json", task("tea", "done on a"))
            #expect(
                pair.wait {
                    (try? pair.server.etcdctl(["get", "tasks/tea"]))?.output.contains("done on a")
                        == true
                })
            return pair
        }

        /// `a` with three tasks, mirrored first (uploading them), then an empty `b`
        /// (downloading them).
        static func started() throws -> MirrorPair {
            let pair = try MirrorPair()
            try FileManager.default.createDirectory(
                atPath: pair.path("a"), withIntermediateDirectories: true)
            for id in ["tea", "bike", "taxes"] { try pair.write("a", "\(id).json", task(id)) }
            try pair.start("a")
            #expect(
                pair.wait {
                    (try? pair.server.etcdctl(["get", "tasks/taxes"]))?.output.contains("taxes")
                        == true
                })
            try pair.start("b")
            #expect(pair.converge { $0.count == 3 }, "b downloads what a uploaded")
            return pair
        }

        @Test("edits by vim, sed -i, cp, mv, rm and git checkout on each side converge")
        func everyKindOfEdit() async throws {
            try await blocking {
                let pair = try Self.started()
                for (side, other) in [("a", "b"), ("b", "a")] {
                    let edited = "edited on \(side)"
                    try pair.shell(
                        side,
                        "vim -es -N -u NONE -i NONE -c '%s/\"status\": \"[^\"]*\"/\"status\": \"\(edited) by vim\"/' -c wq tea.json"
                    )
                    #expect(
                        pair.converge { _ in
                            pair.text(other, "tea.json")?.contains("\(edited) by vim") == true
                        }, "vim on \(side)")
                    try pair.shell(
                        side,
                        "sed -i 's/\"status\": \"[^\"]*\"/\"status\": \"\(edited) by sed\"/' bike.json"
                    )
                    #expect(
                        pair.converge { _ in
                            pair.text(other, "bike.json")?.contains("\(edited) by sed") == true
                        }, "sed on \(side)")
                    try pair.shell(side, "cp bike.json copy-\(side).json")
                    #expect(pair.converge { $0["copy-\(side).json"] != nil }, "cp on \(side)")
                    try pair.shell(side, "mv copy-\(side).json moved-\(side).json")
                    #expect(
                        pair.converge {
                            $0["moved-\(side).json"] != nil && $0["copy-\(side).json"] == nil
                        }, "mv on \(side)")
                    try pair.shell(side, "rm moved-\(side).json")
                    #expect(pair.converge { $0["moved-\(side).json"] == nil }, "rm on \(side)")
                }
                // git checkout: a branch that changes two items and adds one, on a; back on b.
                let git = "git -c user.name=t -c user.email=t@example.com"
                try pair.shell(
                    "a", "git init -q -b main . && \(git) add -A && \(git) commit -qm one")
                try pair.shell(
                    "a",
                    "git checkout -qb other && sed -i 's/\"title\": \"[^\"]*\"/\"title\": \"from other\"/' tea.json taxes.json && printf '{\\n  \"title\": \"new\"\\n}\\n' > new.json && \(git) add -A && \(git) commit -qm two && git checkout -q main"
                )
                #expect(pair.converge { $0["new.json"] == nil })
                try pair.shell("a", "git checkout -q other")
                #expect(
                    pair.converge { items in
                        items["new.json"] != nil
                            && pair.text("b", "tea.json")?.contains("from other") == true
                            && pair.text("b", "taxes.json")?.contains("from other") == true
                    }, "git checkout on a")
                // And on b, a repository of its own: a branch that removes one item and
                // changes another, checked out and back.
                try pair.shell("b", "git init -q -b main . && \(git) add -A && \(git) commit -qm b")
                try pair.shell(
                    "b",
                    "git checkout -qb trim && git rm -q new.json && sed -i 's/\"title\": \"[^\"]*\"/\"title\": \"trimmed\"/' bike.json && \(git) commit -qam trim"
                )
                #expect(
                    pair.converge { items in
                        items["new.json"] == nil
                            && pair.text("a", "bike.json")?.contains("trimmed") == true
                    }, "git checkout on b")
                try pair.shell("b", "git checkout -q main")
                #expect(
                    pair.converge { items in
                        items["new.json"] != nil
                            && pair.text("a", "bike.json")?.contains("trimmed") == false
                    }, "git checkout back on b")
                #expect(
                    try pair.jsonstore("a", ["check"]).status == 0, "no conflicts: \(pair.log("a"))"
                )
                #expect(
                    try pair.jsonstore("b", ["check"]).status == 0, "no conflicts: \(pair.log("b"))"
                )
                #expect(pair.stop("a") == 0 && pair.stop("b") == 0, "SIGTERM: exit 0")
                #expect(
                    pair.text("a", ".jsonstore/.gitignore") == "*\n!/schema.json\n",
                    "git ignores the state, not the schema")
            }
        }

        @Test("a mirror's own writes are not echoed: one edit is one revision of its key")
        func noEcho() async throws {
            try await blocking {
                let pair = try Self.started()
                try pair.write("a", "tea.json", Self.task("tea", "done"))
                #expect(pair.converge { _ in pair.text("b", "tea.json")?.contains("done") == true })
                // A later edit of another item that converges: anything the first one
                // set off in either mirror came before it.
                try pair.write("b", "bike.json", Self.task("bike", "done"))
                #expect(
                    pair.converge { _ in pair.text("a", "bike.json")?.contains("done") == true })
                for key in ["tea", "bike"] {
                    let got = try pair.server.etcdctl(["get", "tasks/\(key)", "-w", "json"]).output
                    #expect(got.contains("\"version\":2"), "created, then edited once: \(got)")
                }
            }
        }

        @Test("invalid files are not sent, ignored files stay local")
        func invalidAndIgnored() async throws {
            try await blocking {
                let pair = try Self.started()
                try pair.write("a", "tea.json", "{\n  \"title\": \"half\n")
                try pair.write("a", "notes.txt", "local notes\n")
                try pair.write("a", ".hidden.json", "{}\n")
                try pair.write("a", "bike.json", Self.task("bike", "done"))
                #expect(pair.wait { pair.text("b", "bike.json")?.contains("done") == true })
                #expect(
                    pair.text("b", "tea.json") == Self.task("tea"), "the last valid value stays")
                let etcd = try pair.server.etcdctl(["get", "tasks/tea", "--print-value-only"])
                    .output
                #expect(etcd.contains("\"title\": \"tea\""))
                #expect(pair.text("b", "notes.txt") == nil && pair.text("b", ".hidden.json") == nil)
                // Fixed, it goes out like any edit.
                try pair.write("a", "tea.json", Self.task("tea fixed"))
                #expect(
                    pair.converge { _ in pair.text("b", "tea.json")?.contains("tea fixed") == true }
                )
            }
        }

        @Test("etcd killed and restarted while both sides edit: every edit arrives")
        func etcdDown() async throws {
            try await blocking {
                let pair = try Self.started()
                pair.server.stop(signal: SIGKILL)
                #expect(pair.wait { pair.log("a").contains("etcd is unreachable") })
                try pair.write("a", "tea.json", Self.task("tea", "done on a"))
                try pair.write("b", "bike.json", Self.task("bike", "done on b"))
                try pair.write("b", "new-b.json", Self.task("made while etcd was down"))
                try pair.shell("a", "rm taxes.json")
                try pair.server.start()
                #expect(
                    pair.converge(30) { items in
                        items["taxes.json"] == nil && items["new-b.json"] != nil
                            && pair.text("b", "tea.json")?.contains("done on a") == true
                            && pair.text("a", "bike.json")?.contains("done on b") == true
                    }, "a: \(pair.log("a")) b: \(pair.log("b"))")
                #expect(
                    pair.log("a").components(separatedBy: "etcd is unreachable").count == 2,
                    "said once")
                #expect(try pair.jsonstore("a", ["check"]).status == 0)
                #expect(try pair.jsonstore("b", ["check"]).status == 0)
            }
        }

        @Test(
            "an etcd transaction of 20 items reaches the other directory's observers as one update")
        func transactionIsOneUpdate() async throws {
            try await blocking {
                let pair = try Self.started()
                let follower = try JSONStoreBinary.start(
                    ["--dir", pair.path("b"), "list", "--follow", "--json"])
                defer { follower.stop() }
                #expect(
                    follower.reader.next(
                        until: { $0.contains("\"event\":\"initial\"") }, within: 20)
                        != nil)
                var script = "\n"  // no compares; the puts; no failure requests
                for n in 0..<20 {
                    script += "put tasks/t\(n) \"{\\\"title\\\": \\\"t\(n)\\\"}\"\n"
                }
                script += "\n\n"
                let txn = try pair.server.etcdctl(["txn"], stdin: script)
                #expect(txn.status == 0 && txn.output.contains("SUCCESS"), "\(txn.output)")
                var (inserted, updates) = (0, 0)
                while inserted < 20, let line = follower.reader.next(within: 20) {
                    guard line.contains("\"event\":\"update\""),
                        let update = try? JSONSerialization.jsonObject(with: Data(line.utf8))
                            as? [String: Any]
                    else { continue }
                    updates += 1
                    inserted += (update["insertions"] as? [Any])?.count ?? 0
                }
                #expect(inserted == 20, "\(pair.log("b"))")
                #expect(updates == 1, "one transaction, one update: \(updates)")
            }
        }
    }
}
