import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

/// A failure part-way through opening something keeps none of its descriptors: found by a
/// reader of the code (a journal segment opened, then its torn tail not cut off), checked
/// here by looking at what the process holds open (`/proc/self/fd`) for that path.
@Suite(
    "Descriptors of a failed open",
    .enabled(if: geteuid() == 0, "chattr +a (a file only appended to) needs root"))
struct DescriptorLeakTests {
    /// The descriptors of this process open on `path` now.
    static func descriptors(on path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd))
                == path
        }
    }

    /// Makes `path` a file that may only be appended to, or not (`chattr +a`, `-a`): the
    /// FS_IOC_GETFLAGS / FS_IOC_SETFLAGS ioctls and FS_APPEND_FL.
    static func setAppendOnly(_ path: String, _ on: Bool) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let (get, set, append): (UInt, UInt, CLong) = (0x8008_6601, 0x4008_6602, 0x20)
        var flags: CLong = 0
        guard ioctl(fd, get, &flags) == 0 else { return false }
        flags = on ? flags | append : flags & ~append
        return ioctl(fd, set, &flags) == 0
    }

    @Test("a journal whose torn tail cannot be cut off: the write goes on, its segment let go")
    func tornTailNotCut() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["n": 1])
        let history = try #require(temp.store.history)
        let segment =
            temp.path + "/.jsonstore/journal/"
            + (try #require(history.journal.segments().last)).name
        // A line cut short (a writer killed mid-append), in a file that may only grow:
        // opening it to append works, cutting the line off fails (EPERM, even for root).
        let handle = try #require(FileHandle(forWritingAtPath: segment))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"r":2,"id":"a","#.utf8))
        try handle.close()
        try #require(Self.setAppendOnly(segment, true), "chattr +a: \(Errno.current)")
        defer { _ = Self.setAppendOnly(segment, false) }
        // The write itself goes on: history that cannot be written never refuses one.
        try temp.store.put("a", ["n": 2])
        #expect(temp.readFile("a.json")?.contains("2") == true)
        // Another thread of the store may read the segment a moment (the suite runs in
        // parallel, so that moment may be long): held past the deadline, it was kept.
        let deadline = Date().addingTimeInterval(10)
        var held = try Self.descriptors(on: segment)
        while !held.isEmpty && Date() < deadline {
            usleep(10_000)
            held = try Self.descriptors(on: segment)
        }
        #expect(held == [], "descriptors \(held) still open on the segment")
    }
}
