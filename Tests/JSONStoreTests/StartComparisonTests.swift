import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

/// The pass a second start makes instead of reading every file: what changed since an
/// earlier look, from each file's `stat` alone, on real files.
@Suite("A second start: what changed since a look")
struct StartComparisonTests {
    /// Begins a look at `dir` once every time of `names` is past: the stamp of a marker
    /// file, which a file system that keeps coarse times may give the same tick as the
    /// files written just before (then they would all be read again).
    func look(after names: [String], in dir: FileDescriptor) throws -> Int64 {
        let latest =
            names.compactMap { dir.signature(of: $0) }.map { max($0.modified, $0.changed) }.max()
            ?? 0
        let deadline = Date().addingTimeInterval(5)
        while true {
            let start = try dir.stamp(".look")
            if start > latest { return start }
            try #require(Date() < deadline, "the file system's clock did not pass \(latest)")
            usleep(1_000)
        }
    }

    /// What a look records: each of `names`' signatures, by its bytes.
    func signatures(of names: [String], in dir: FileDescriptor) throws -> [UTF8Key: FileSignature] {
        var known: [UTF8Key: FileSignature] = [:]
        for name in names {
            let signature = try #require(dir.signature(of: name))
            known[UTF8Key(name)] = signature
        }
        return known
    }

    /// A cache of `known` (signatures by file name), recorded by a look that began at
    /// `start`, as its file's bytes.
    func cacheBytes(_ known: [UTF8Key: FileSignature], lookedAt start: Int64) throws -> [UInt8] {
        let made = known.map { name, signature in
            StartCache.Entry(
                id: id(name.string), signature: signature, fingerprint: Fingerprint([UInt8]()),
                bytes: ItemBytes(Array(name.string.utf8)))
        }.sorted { UTF8Key.less($0.id, $1.id) }
        let header = StartCache.Header(directory: directory, lookedAt: start)
        return try StartCache.encoded(header, made)
    }

    let directory = StartCache.Directory(device: 1, inode: 1)

    func id(_ name: String) -> String { String(name.dropLast(".json".count)) }

    /// The comparison of the files `names` with what `known` recorded of them by name, as
    /// names: what is unchanged, what to read, what is gone. The cache's files are looked
    /// at first (`lookAhead`, as a start does while it lists), and the walk takes its
    /// answers.
    func compare(
        _ names: [String], in dir: FileDescriptor, known: [UTF8Key: FileSignature],
        lookedAt start: Int64, parallelAbove threshold: Int = 4096, batchSize: Int = 4096
    ) throws
        -> (unchanged: [String], toRead: [String], gone: [String])
    {
        let ids = names.map(id).sorted(by: UTF8Key.less)
        let bytes = try cacheBytes(known, lookedAt: start)
        let cursor = try StartCache.Cursor(.memory(bytes), for: directory, terms: nil)
        #expect(cursor.readItems())
        let looked = try #require(
            cursor.lookAhead(
                in: dir, lookedAt: start, parallelAbove: threshold, batchSize: batchSize))
        #expect(looked.count == cursor.count)
        var unchanged: [String] = []
        var walked: [Int] = []
        let comparison = StartComparison(
            ids, cache: cursor, lookedAt: start, looked: looked
        ) { i, found in
            walked.append(i)
            guard case .unchanged(let entry) = found else { return }
            // The entry taken is the listed file's, its bytes what the cache held of it.
            #expect(entry.error == nil)
            #expect(entry.item(id: ids[i])?.bytes.array == Array(ItemID.fileName(ids[i]).utf8))
            unchanged.append(ItemID.fileName(ids[i]))
        }
        // Every listed file, once, in the listing's order.
        #expect(walked == Array(ids.indices))
        #expect(comparison.intact)
        #expect(comparison.changed.allSatisfy { entry in ids.contains(entry.id) })
        // The listing walked in blocks of two, each let go once walked: the same answers,
        // each file handed with its id.
        var blocks = stride(from: 0, to: ids.count, by: 2).map {
            Array(ids[$0..<min($0 + 2, ids.count)])
        }
        let again = try StartCache.Cursor(.memory(bytes), for: directory, terms: nil)
        #expect(again.readItems())
        var handed: [String] = []
        let inBlocks = StartComparison(&blocks, cache: again, lookedAt: start, looked: looked) {
            i, id, _ in
            #expect(id == ids[i])
            handed.append(id)
        }
        #expect(blocks.isEmpty && handed == ids && inBlocks.intact)
        #expect(inBlocks.toRead == comparison.toRead && inBlocks.new == comparison.new)
        #expect(comparison.new.allSatisfy { ids.contains($0) })
        return (
            unchanged,
            comparison.toRead.map { ItemID.fileName(ids[$0]) },
            comparison.gone.map { ItemID.fileName($0.id) }
        )
    }

    @Test("untouched files are used; rewritten (time put back), replaced, new, removed are not")
    func changedSince() throws {
        let temp = try TemporaryStore()
        for name in ["a", "b", "c", "d"] { try temp.writeFile("\(name).json", #"{"v": 1}"#) }
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        let names = ["a.json", "b.json", "c.json", "d.json"]
        let start = try look(after: names, in: dir)
        let known = try signatures(of: names, in: dir)

        // b: the same size, another value, its modification time put back.
        try temp.writeFile("b.json", #"{"v": 2}"#)
        let old = known[UTF8Key("b.json")]!.modified
        var times = [
            timespec(tv_sec: Int(old / 1_000_000_000), tv_nsec: Int(old % 1_000_000_000)),
            timespec(tv_sec: Int(old / 1_000_000_000), tv_nsec: Int(old % 1_000_000_000)),
        ]
        #expect(utimensat(AT_FDCWD, temp.path + "/b.json", &times, 0) == 0)
        #expect(dir.signature(of: "b.json")?.modified == old)
        #expect(dir.signature(of: "b.json")?.size == known[UTF8Key("b.json")]!.size)
        // c removed, d replaced by a rename of the same bytes, e new.
        try FileManager.default.removeItem(atPath: temp.path + "/c.json")
        try temp.writeFile("d.tmp", #"{"v": 1}"#)
        #expect(rename(temp.path + "/d.tmp", temp.path + "/d.json") == 0)
        try temp.writeFile("e.json", #"{"v": 1}"#)

        let now = ["a.json", "b.json", "d.json", "e.json"]
        // The files' `fstatat`s on one thread, and on every core, in one batch or in
        // batches of two or one: the same answer.
        for (threshold, batchSize) in [(4096, 4096), (1, 4096), (1, 2), (4096, 1)] {
            let comparison = try compare(
                now, in: dir, known: known, lookedAt: start, parallelAbove: threshold,
                batchSize: batchSize)
            #expect(comparison.unchanged == ["a.json"])
            #expect(comparison.toRead == ["b.json", "d.json", "e.json"])
            #expect(comparison.gone == ["c.json"])
        }
    }

    @Test("a cache changed in place after its check is not used: the walk says so")
    func changedInPlace() throws {
        let temp = try TemporaryStore()
        let names = ["a.json", "b.json", "c.json"]
        for name in names { try temp.writeFile(name, "{}") }
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        let start = try look(after: names, in: dir)
        let bytes = try cacheBytes(signatures(of: names, in: dir), lookedAt: start)
        #expect(FileManager.default.createFile(atPath: temp.path + "/cache", contents: Data(bytes)))
        let fd = try FileDescriptor.open("cache", relativeTo: dir, flags: O_RDWR)
        defer { fd.close() }
        let cursor = try StartCache.Cursor(
            .file(fd, size: bytes.count), for: directory, terms: nil)
        #expect(cursor.readItems())
        let second = try StartCache.Cursor(
            .file(fd, size: bytes.count), for: directory, terms: nil)
        // Looked at ahead, before the change: every file as recorded.
        let looked = try #require(cursor.lookAhead(in: dir, lookedAt: start))
        #expect(looked == [true, true, true])
        // b's recorded inode, changed in the file once it was checked: the answer given
        // for b was for the record as it was, but a cache changed so is trusted for
        // nothing.
        let sections = try StartCache.Sections(.memory(bytes), for: directory, terms: nil)
        var inode = UInt64(7).littleEndian
        let at = sections.records + StartCache.Layout.record + StartCache.Layout.inode
        #expect(pwrite(fd.rawValue, &inode, 8, off_t(at)) == 8)
        // And c's item said to lie far past the items' bytes: never read, nor taken.
        var count = UInt32(0xFFFF_0000).littleEndian
        let past = sections.records + 2 * StartCache.Layout.record + StartCache.Layout.bytesCount
        #expect(pwrite(fd.rawValue, &count, 4, off_t(past)) == 4)
        var taken: [Int] = []
        let comparison = StartComparison(
            names.map(id), cache: cursor, lookedAt: start, looked: looked
        ) { i, found in
            if case .unchanged = found { taken.append(i) }
        }
        #expect(!comparison.intact)
        #expect(taken == [0, 1])  // what the walk took before its end, not to be used
        #expect(comparison.toRead == [2])
        // A look ahead made after the change: what it read does not check out, so it
        // answers nothing.
        #expect(second.lookAhead(in: dir, lookedAt: start) == nil)
    }

    @Test("a file stamped in the tick the look began is read again, whatever its signature")
    func racyClean() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{}")
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        let signature = try #require(dir.signature(of: "a.json"))
        let known = [UTF8Key("a.json"): signature]
        // The look began in the tick the file was last stamped: a change later in that
        // tick would have left the signature as it is, so the file is not trusted.
        let racy = try compare(["a.json"], in: dir, known: known, lookedAt: signature.changed)
        #expect(racy.toRead == ["a.json"])
        let later = max(signature.changed, signature.modified) + 1
        let settled = try compare(["a.json"], in: dir, known: known, lookedAt: later)
        #expect(settled.unchanged == ["a.json"])
    }

    @Test("the walk takes what was looked at ahead: no file is looked at twice")
    func lookedAtOnce() throws {
        let temp = try TemporaryStore()
        let names = ["a.json", "b.json"]
        for name in names { try temp.writeFile(name, "{}") }
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        let start = try look(after: names, in: dir)
        let bytes = try cacheBytes(signatures(of: names, in: dir), lookedAt: start)
        let cursor = try StartCache.Cursor(.memory(bytes), for: directory, terms: nil)
        #expect(cursor.readItems())
        try temp.writeFile("b.json", "[1]")
        let looked = try #require(cursor.lookAhead(in: dir, lookedAt: start))
        #expect(looked == [true, false])
        // a changed after it was looked at (the watcher, started before, reports that
        // change): the walk goes by the answer, and takes the cache's a.
        try temp.writeFile("a.json", "[2]")
        var taken: [String] = []
        let ids = names.map(id)
        let comparison = StartComparison(
            ids, cache: cursor, lookedAt: start, looked: looked
        ) { i, found in
            if case .unchanged(let entry) = found, entry.hasItem { taken.append(ids[i]) }
        }
        #expect(comparison.intact)
        #expect(taken == ["a"])
        #expect(comparison.toRead == [1])
    }

    @Test("a change after a look begins is stamped at or after the look's stamp (this file system)")
    func clockOrder() throws {
        // What `isSettled` rests on, checked on the machine's own file system: the stamp
        // and the files share its clock and its precision.
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{}")
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        for round in 0..<500 {
            let start = try dir.stamp(".look")
            try temp.writeFile("a.json", "{\"round\": \(round)}")
            let signature = try #require(dir.signature(of: "a.json"))
            #expect(signature.changed >= start, "round \(round)")
            #expect(signature.modified >= start, "round \(round)")
        }
    }

    @Test("two names that are one String (é and e + U+0301) are two files: one gone is told")
    func namesByBytes() throws {
        let temp = try TemporaryStore()
        let (composed, decomposed) = ("caf\u{E9}.json", "cafe\u{301}.json")
        try temp.writeFile(composed, "{}")
        try temp.writeFile(decomposed, "{}")
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        let start = try look(after: [composed, decomposed], in: dir)
        let known = try signatures(of: [composed, decomposed], in: dir)
        #expect(known.count == 2)
        unlink(temp.path + "/" + decomposed)
        let comparison = try compare([composed], in: dir, known: known, lookedAt: start)
        #expect(comparison.unchanged == [composed])
        #expect(comparison.gone == [decomposed])
        #expect(comparison.gone.first?.utf8.count == decomposed.utf8.count)
    }
}
