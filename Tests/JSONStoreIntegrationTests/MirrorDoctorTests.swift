import Foundation
import Glibc
import TestSupport
import Testing

extension EtcdTests.Mirror {
    @Test("doctor says whether a mirror holds the directory, what is unsent and where it goes")
    func doctorOnMirror() async throws {
        try await blocking {
            let pair = try Self.started()
            let pid = try #require(pair.pid("a"))
            let running = try pair.jsonstore("a", ["doctor"])
            #expect(running.stdout.contains("pid \(pid)"), "\(running.stdout)")
            #expect(!running.stdout.contains("problem: no mirror"), "\(running.stdout)")
            #expect(pair.stop("b") == 0)
            try pair.write("b", "tea.json", Self.task("tea", "not sent"))
            try pair.write("b", "new.json", Self.task("new"))
            try pair.shell("b", "rm bike.json")
            let down = try pair.jsonstore("b", ["doctor"])
            #expect(down.status == 1, "\(down.stdout)")
            #expect(down.stdout.contains("3 local changes not sent"), "\(down.stdout)")
            #expect(down.stdout.contains(pair.server.endpoint), "\(down.stdout)")
            #expect(down.stdout.contains("problem: no mirror"), "\(down.stdout)")
            #expect(
                down.stdout.contains(
                    "fix: jsonstore --dir \(pair.path("b")) mirror \(pair.address)"),
                "\(down.stdout)")
        }
    }

    @Test(
        "a private folder that is a symlink is never followed: refused, and said",
        arguments: [".jsonstore", ".jsonstore/mirror"])
    func privateFolderLink(link: String) async throws {
        try await blocking {
            let pair = try MirrorPair()
            let elsewhere = pair.root + "/elsewhere"
            try FileManager.default.createDirectory(
                atPath: pair.path("a") + "/.jsonstore", withIntermediateDirectories: true)
            if link == ".jsonstore" {
                try FileManager.default.removeItem(atPath: pair.path("a") + "/.jsonstore")
            }
            try FileManager.default.createDirectory(
                atPath: elsewhere, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: pair.path("a") + "/" + link, withDestinationPath: elsewhere)
            try pair.write("a", "tea.json", Self.task("tea"))
            try pair.start("a")
            let status = pair.exitStatus("a")
            if status == nil { pair.stop("a") }
            #expect(status == 1, "\(pair.log("a"))")
            #expect(pair.log("a").contains("symbolic link"), "\(pair.log("a"))")
            let written = try FileManager.default.contentsOfDirectory(atPath: elsewhere)
            #expect(written.isEmpty, "nothing is written where the link points: \(written)")
            for command in ["check", "doctor"] {
                let run = try pair.jsonstore("a", [command])
                #expect(run.status == 1, "\(command): \(run.stdout)")
                #expect(
                    run.stdout.contains("\(link): a symbolic link"), "\(command): \(run.stdout)")
            }
        }
    }

    @Test(
        "a conflict that cannot be kept is said: the mirror's summary, check and doctor",
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"),
            "needs root and chattr"))
    func unkeptConflict() async throws {
        try await blocking {
            let pair = try Self.startedThenApart()
            try pair.write("b", "tea.json", Self.task("tea", "done on b"))
            // Nothing can be made in b now, not even by root: no conflict can be kept.
            defer { _ = try? pair.shell("b", "chattr -i .") }
            guard try pair.shell("b", "chattr +i .").status == 0 else {
                withKnownIssue("chattr +i is not supported by this file system") {
                    Issue.record("b could not be made immutable")
                }
                return
            }
            try pair.start("b")
            #expect(
                pair.wait { pair.log("b").contains("could not be kept") },
                "\(pair.log("b"))")
            #expect(pair.log("b").contains("1 conflict could not be kept"), "\(pair.log("b"))")
            let check = try pair.jsonstore("b", ["check"])
            #expect(check.status == 1, "\(check.stdout)")
            #expect(check.stdout.contains("tea: conflict: could not be kept"), "\(check.stdout)")
            let doctor = try pair.jsonstore("b", ["doctor"])
            #expect(doctor.status == 1)
            #expect(doctor.stdout.contains("1 conflict could not be kept"), "\(doctor.stdout)")
            #expect(pair.stop("b") == 0)
        }
    }
}
