import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

/// The pass a second start makes instead of reading every file: what changed since an
/// earlier look, from each file's `stat` alone, on real files.
@Suite("A second start: what changed since a look")
struct StartComparisonTests {
    /// Waits until the clock file times come from has passed every time of `names`, so
    /// that a look begun now finds them settled.
    func settle(_ names: [String], in dir: FileDescriptor) throws {
        let latest =
            names.compactMap { dir.signature(of: $0) }.map { max($0.modified, $0.changed) }
            .max() ?? 0
        let deadline = Date().addingTimeInterval(5)
        while WallClock.fileTime() <= latest {
            try #require(Date() < deadline, "the file clock did not pass \(latest)")
            usleep(1_000)
        }
    }

    @Test("untouched files are used; rewritten (time put back), replaced, new, removed are not")
    func changedSince() throws {
        let temp = try TemporaryStore()
        for name in ["a", "b", "c", "d"] { try temp.writeFile("\(name).json", #"{"v": 1}"#) }
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        let names = ["a.json", "b.json", "c.json", "d.json"]
        try settle(names, in: dir)
        let start = WallClock.fileTime()
        var known: [String: FileSignature] = [:]
        for name in names {
            let signature = try #require(dir.signature(of: name))
            known[name] = signature
        }

        // b: the same size, another value, its modification time put back.
        try temp.writeFile("b.json", #"{"v": 2}"#)
        let old = known["b.json"]!.modified
        var times = [
            timespec(tv_sec: Int(old / 1_000_000_000), tv_nsec: Int(old % 1_000_000_000)),
            timespec(tv_sec: Int(old / 1_000_000_000), tv_nsec: Int(old % 1_000_000_000)),
        ]
        #expect(utimensat(AT_FDCWD, temp.path + "/b.json", &times, 0) == 0)
        #expect(dir.signature(of: "b.json")?.modified == old)
        #expect(dir.signature(of: "b.json")?.size == known["b.json"]!.size)
        // c removed, d replaced by a rename of the same bytes, e new.
        try FileManager.default.removeItem(atPath: temp.path + "/c.json")
        try temp.writeFile("d.tmp", #"{"v": 1}"#)
        #expect(rename(temp.path + "/d.tmp", temp.path + "/d.json") == 0)
        try temp.writeFile("e.json", #"{"v": 1}"#)

        let now = ["a.json", "b.json", "d.json", "e.json"]
        let comparison = StartComparison(now, in: dir, known: known, lookedAt: start)
        #expect(comparison.unchanged == ["a.json"])
        #expect(comparison.toRead == ["b.json", "d.json", "e.json"])
        #expect(comparison.gone == ["c.json"])
    }

    @Test("a file stamped in the tick the look began is read again, whatever its signature")
    func racyClean() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{}")
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        let signature = try #require(dir.signature(of: "a.json"))
        let known = ["a.json": signature]
        // The look began in the tick the file was last stamped: a change later in that
        // tick would have left the signature as it is, so the file is not trusted.
        let racy = StartComparison(["a.json"], in: dir, known: known, lookedAt: signature.changed)
        #expect(racy.toRead == ["a.json"])
        let later = max(signature.changed, signature.modified) + 1
        let settled = StartComparison(["a.json"], in: dir, known: known, lookedAt: later)
        #expect(settled.unchanged == ["a.json"])
    }

    @Test("a change after a look begins is stamped at or after the look's start (this file system)")
    func clockOrder() throws {
        // What `isSettled` rests on, checked on the machine's own file system and clock:
        // a finer clock than the file times' would fail this now and then.
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{}")
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        for round in 0..<500 {
            let start = WallClock.fileTime()
            try temp.writeFile("a.json", "{\"round\": \(round)}")
            let signature = try #require(dir.signature(of: "a.json"))
            #expect(signature.changed >= start, "round \(round)")
            #expect(signature.modified >= start, "round \(round)")
        }
    }
}
