import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

/// The journal (`.jsonstore/journal/`) as jsonstore's own writes and late catch-ups fill
/// it, read back by `history(of:)`, on real directories.
@Suite("History: the journal of a directory store")
struct HistoryTests {
    @Test("put, update and delete: one entry each, numbered in order, with what changed")
    func ownWrites() throws {
        let temp = try TemporaryStore()
        let store = temp.store
        try store.put("tea", ["title": "Make tea", "status": "todo"])
        try store.update("tea") { $0["status"] = "done" }
        try store.delete("tea")
        let entries = try store.history(of: "tea")
        #expect(entries.map(\.revision) == [3, 2, 1])
        #expect(entries.map(\.kind) == [.deleted, .modified, .created])
        #expect(entries[2].value == ["title": "Make tea", "status": "todo"])
        #expect(entries[1].changes == [MemberChange(path: "/status", old: "todo", new: "done")])
        #expect(entries[0].value == ["title": "Make tea", "status": "done"])
        #expect(entries.allSatisfy { !$0.isLate && $0.operation != nil })
        #expect(Set(entries.compactMap(\.operation)).count == 3)
        #expect(entries[1].patch.json == [["op": "replace", "path": "/status", "value": "done"]])
        #expect(
            entries[1].inversePatch.json == [["op": "replace", "path": "/status", "value": "todo"]])
    }

    @Test("a batch is one operation: every entry carries its token")
    func batchOperation() throws {
        let temp = try TemporaryStore()
        try temp.store.write { tx in
            try tx.put("a", ["n": 1])
            try tx.put("b", ["n": 2])
            try tx.put("c", ["n": 3])
        }
        try temp.store.delete("c")
        let entries = try temp.store.history()
        #expect(entries.map(\.id) == ["c", "c", "b", "a"])
        let batch = Set(entries.dropFirst().compactMap(\.operation))
        #expect(batch.count == 1)
        #expect(entries[0].operation != nil && !batch.contains(entries[0].operation!))
    }

    @Test("writing the same bytes again records nothing")
    func identicalWrite() throws {
        let temp = try TemporaryStore()
        try temp.store.put("tea", ["title": "Make tea"])
        try temp.store.put("tea", ["title": "Make tea"])
        #expect(try temp.store.history().count == 1)
    }

    @Test("edits while nothing watched: one late entry each, as another program's")
    func lateEdits() throws {
        let temp = try TemporaryStore()
        try temp.store.put("tea", ["title": "Make tea", "status": "todo"])
        try temp.store.put("bike", ["title": "Fix the bike"])
        // Another program: a rewrite, a deletion and a new file, while nothing runs.
        try temp.writeFile("tea.json", "{\"title\": \"Make tea\", \"status\": \"done\"}\n")
        try FileManager.default.removeItem(atPath: temp.path + "/bike.json")
        try temp.writeFile("taxes.json", "{\"title\": \"File taxes\"}\n")
        let late = try temp.store.history().filter(\.isLate)
        #expect(late.allSatisfy { $0.source == .otherProgram && $0.operation == nil })
        #expect(
            Set(late.map { "\($0.id) \($0.kind)" }) == [
                "tea modified", "bike deleted", "taxes created",
            ])
        let tea = late.first { $0.id == "tea" }
        #expect(tea?.changes == [MemberChange(path: "/status", old: "todo", new: "done")])
        #expect(late.first { $0.id == "bike" }?.value == ["title": "Fix the bike"])
        // Recorded once: asking again finds nothing new.
        #expect(try temp.store.history().count == 5)
    }

    @Test("a look at more files than one append takes records each once, in segments")
    func lookInChunks() throws {
        var options = JSONStore.Options()
        options.journalSegmentLimit = 64 << 10
        // Less than the look appends: nothing of it is pruned before it ends.
        options.historyMaxBytes = 256 << 10
        let temp = try TemporaryStore(options: options)
        try temp.store.put("first", ["n": 0])
        let made = 2 * StoreHistory.idsPerAppend + 7
        for i in 0..<made { try temp.writeFile("item-\(i).json", "{\"n\": \(i)}\n") }
        let entries = try temp.store.history()
        // Once seen under a loaded ThreadSanitizer run, one short: say which and why.
        let recorded = Set(entries.map(\.id))
        let unrecorded = (0..<made).map { "item-\($0)" }.filter { !recorded.contains($0) }
        #expect(
            entries.count == made + 1,
            "unrecorded \(unrecorded): \(unrecorded.prefix(3).map { id in Result { try temp.store.item(id) } })"
        )
        #expect(entries.map(\.revision) == Array((1...made + 1).reversed()))
        let late = entries.filter(\.isLate)
        #expect(late.count == made && late.allSatisfy { $0.kind == .created })
        #expect(Set(late.map(\.id)).count == made)
        #expect(late.first { $0.id == "item-4100" }?.value == ["n": 4100])
        // Recorded once: asking again finds nothing new.
        #expect(try temp.store.history().count == made + 1)
        // Segments begun on the way, none past the limit by more than one append.
        let folder = temp.path + "/.jsonstore/journal"
        let segments = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".jsonl") }
        #expect(segments.count >= 3)
        for name in segments {
            let size = try #require(
                FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int)
            #expect(size < (64 << 10) + 4_096 * 200, "\(name): \(size) bytes")
        }
    }

    @Test("a write over a file changed by hand records the hand edit first, then its own")
    func lateBeforeWrite() throws {
        let temp = try TemporaryStore()
        try temp.store.put("tea", ["title": "Make tea", "status": "todo"])
        try temp.writeFile("tea.json", "{\"title\": \"Make green tea\", \"status\": \"todo\"}\n")
        try temp.store.update("tea") { $0["status"] = "done" }
        let entries = try temp.store.history(of: "tea")
        #expect(entries.map(\.isLate) == [false, true, false])
        #expect(entries[1].changes.map(\.path) == ["/title"])
        #expect(entries[0].changes.map(\.path) == ["/status"])
    }

    @Test("a file dated past 2262 (nanoseconds beyond Int64) is written over and recorded")
    func farFutureTime() throws {
        let temp = try TemporaryStore()
        try temp.store.put("tea", ["title": "Make tea"])
        try temp.writeFile("tea.json", "{\"title\": \"Make green tea\"}\n")
        // 2300-01-01, as `touch -d` sets it: its nanoseconds overflowed and trapped.
        var times = [
            timespec(tv_sec: 10_413_792_000, tv_nsec: 0),
            timespec(tv_sec: 10_413_792_000, tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, temp.path + "/tea.json", &times, 0) == 0)
        try temp.store.update("tea") { $0["status"] = "done" }
        let entries = try temp.store.history(of: "tea")
        #expect(entries.map(\.isLate) == [false, true, false])
        #expect(entries[1].changes.map(\.path) == ["/title"])
        let signature = try #require(
            FileDescriptor.openDirectory(temp.path).closeAfter { $0.signature(of: "tea.json") })
        #expect(signature.size > 0)
        var limits = [
            timespec(tv_sec: .max, tv_nsec: 999_999_999), timespec(tv_sec: .min, tv_nsec: 0),
        ]
        #expect(WallClock.nanoseconds(limits[0]) == .max)
        #expect(WallClock.nanoseconds(limits[1]) == .min)
        limits[0].tv_sec = 9_223_372_036
        #expect(WallClock.nanoseconds(limits[0]) == .max)
    }

    @Test("modifications keep the whole value every so often; any version rebuilds")
    func keyframes() throws {
        let temp = try TemporaryStore()
        for n in 0..<40 { try temp.store.put("counter", ["n": .number(JSONNumber(n))]) }
        let entries = try temp.store.history(of: "counter")
        #expect(entries.count == 40)
        let kept = entries.filter { $0.keyframe != nil }.count
        #expect(kept == 39 / JournalHeads.keyframeInterval)
        let history = try #require(temp.store.history)
        #expect(history.recordedValue(of: "counter") == ["n": 39])
        let upTo20 = Array(entries.reversed().prefix(21))
        #expect(Journal.value(after: upTo20) == ["n": 20])
    }

    @Test("damage in the journal is reported with file and offset; history goes on after it")
    func damage() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["n": 1])
        try temp.store.put("b", ["n": 2])
        let segment = temp.path + "/.jsonstore/journal/00000000000000000001.jsonl"
        let before = try Data(contentsOf: URL(fileURLWithPath: segment))
        // Garbage appended as if a line, then a line cut short (a writer killed mid-append).
        try (before + Data("garbage here\n{\"rev\":".utf8)).write(to: URL(fileURLWithPath: segment))
        try temp.store.put("c", ["n": 3])
        let history = try #require(temp.store.history)
        var seen: [String] = []
        let report = history.journal.read { seen.append($0.id) }
        #expect(seen == ["a", "b", "c"])
        #expect(report.damage.map(\.offset) == [before.count])
        #expect(report.damage.first?.file == segment)
        #expect(report.lastRevision == 3)
    }

    @Test("a header damaged, a segment removed: reported; writes go on, history after it")
    func damagedSegments() throws {
        var options = JSONStore.Options()
        options.journalSegmentLimit = 512
        let temp = try TemporaryStore(options: options)
        for n in 0..<12 { try temp.store.put("item", ["n": .number(JSONNumber(n))]) }
        let history = try #require(temp.store.history)
        let segments = history.journal.segments()
        #expect(segments.count >= 4)
        let journal = temp.path + "/.jsonstore/journal/"
        // The second segment removed, the newest one's header overwritten with garbage.
        try FileManager.default.removeItem(atPath: journal + segments[1].name)
        let newest = journal + segments.last!.name
        var bytes = try Data(contentsOf: URL(fileURLWithPath: newest))
        bytes.replaceSubrange(0..<10, with: Data("##########".utf8))
        try bytes.write(to: URL(fileURLWithPath: newest))
        // Writes still work and are recorded, in a segment of their own.
        try temp.store.put("item", ["n": 100])
        let report = history.journal.read { _ in }
        #expect(report.lastRevision == 13)
        #expect(report.damage.count == 2, "\(report.damage)")
        #expect(
            report.damage.contains {
                $0.file == journal + segments[2].name && $0.reason.contains("are missing")
            })
        #expect(report.damage.contains { $0.file == newest && $0.offset == 0 })
        #expect(history.journal.segments().last == Journal.Segment(first: 13))
        #expect(try temp.store.history(of: "item").first?.changes.map(\.new) == [100])
    }

    @Test("a journal removed begins again under another name; revisions start over")
    func journalLost() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["n": 1])
        let history = try #require(temp.store.history)
        let first = history.journal.read { _ in }.journalID
        try FileManager.default.removeItem(atPath: temp.path + "/.jsonstore/journal")
        try temp.store.put("a", ["n": 2])
        let again = history.journal.read { _ in }
        #expect(again.journalID != nil && again.journalID != first)
        // The item was known to the old journal only: the new one starts with what it is.
        let entries = try temp.store.history(of: "a")
        #expect(entries.map(\.revision) == [2, 1], "\(entries)")
    }

    @Test("a full segment is closed and the next begun; reading crosses them")
    func segments() throws {
        var options = JSONStore.Options()
        options.journalSegmentLimit = 1024
        let temp = try TemporaryStore(options: options)
        for n in 0..<40 { try temp.store.put("item", ["n": .number(JSONNumber(n))]) }
        let history = try #require(temp.store.history)
        #expect(history.journal.segments().count > 3)
        #expect(try temp.store.history(of: "item").map(\.revision) == Array((1...40).reversed()))
        #expect(history.journal.read { _ in }.damage.isEmpty)
        #expect(history.recordedValue(of: "item") == ["n": 39])
    }

    @Test("retention: the oldest segments go first, beyond the size; a pruned revision says so")
    func retention() throws {
        var options = JSONStore.Options()
        options.journalSegmentLimit = 512
        options.historyMaxBytes = 2048
        let temp = try TemporaryStore(options: options)
        try temp.store.put("old", ["title": "made first, its history pruned"])
        for n in 0..<60 { try temp.store.put("item", ["n": .number(JSONNumber(n))]) }
        let history = try #require(temp.store.history)
        let segments = history.journal.segments()
        let bytes = segments.compactMap {
            try? FileManager.default.attributesOfItem(atPath: history.journal.path(of: $0))[.size]
                as? Int
        }.reduce(0, +)
        #expect(segments.first!.first > 1)
        #expect(bytes <= 2048 + 1024, "\(bytes) bytes in \(segments.count) segments")
        // What is kept reads whole; revisions go on from where they were.
        let report = history.journal.read { _ in }
        #expect(report.damage.isEmpty && report.lastRevision == 61)
        #expect(try temp.store.item("item", at: 61) == ["n": 59])
        #expect {
            try temp.store.item("item", at: 1)
        } throws: { error in
            (error as? StoreError)?.message.hasPrefix(
                "revision 1 was pruned: the history begins at") == true
        }
        // A lookup still finds the item's head, and the next write builds on it.
        try temp.store.update("item") { $0["n"] = 100 }
        #expect(try temp.store.history(of: "item").first?.changes.first?.old == 59)
        // An item whose whole history was pruned is not taken for one created unseen: its
        // history begins again where it is first seen, and its next change is a
        // modification of what the file held.
        #expect(try temp.store.history().filter { $0.isLate && !$0.isBaseline }.isEmpty)
        try temp.store.update("old") { $0["title"] = "changed" }
        let old = try temp.store.history(of: "old")
        #expect(old.map(\.kind) == [.modified, .created])
        #expect(old.last?.isBaseline == true && old.first?.isBaseline == false)
        #expect(old.first?.changes.map(\.path) == ["/title"])
    }

    @Test(
        "an entry longer than a lookup's window is found; no lookup loops", .timeLimit(.minutes(1)))
    func longLine() throws {
        let temp = try TemporaryStore()
        let big = String(repeating: "x", count: 300_000)
        try temp.store.put("big", ["text": .string(big)])
        try temp.store.put("big", ["text": .string(big + "y")])
        // A fresh value knows no head: each write looks its ids up through the long lines.
        let again = try JSONStore(directory: temp.path)
        try again.put("small", ["n": 1])
        try again.update("big") { $0["n"] = 1 }
        let entries = try again.history(of: "big")
        #expect(entries.map(\.revision) == [4, 2, 1])
        #expect(entries.first?.changes.map(\.path) == ["/n"])
    }

    @Test("a value holding the item's own marker is one entry, rebuilt once")
    func markerInValue() throws {
        let temp = try TemporaryStore()
        // Written compactly, the nested object reads `,"id":"tea","kind":"` like the entry's.
        let nested: JSONObject = ["rel": "x", "id": "tea", "kind": "y"]
        try temp.store.put("tea", ["link": .object(nested), "tags": ["a"]])
        try temp.store.update("tea") { $0["tags"] = ["a", "b"] }
        let history = try #require(temp.store.history)
        #expect(try temp.store.history(of: "tea").count == 2)
        #expect(history.recordedValue(of: "tea")?["tags"] == ["a", "b"])
        #expect(try temp.store.item("tea", at: 1)?["tags"] == ["a"])
    }

    @Test("a head's whole-value mark: a deletion with no value begins versions again too")
    func headOfDeletion() {
        let entry = HistoryEntry(
            revision: 7, timestamp: 1, id: "tea", kind: .deleted, source: .otherProgram,
            operation: nil, changes: [], value: nil, isLate: true, fingerprint: nil,
            keyframe: nil)
        let line = JournalLine.encode(entry)
        let head = line.withUnsafeBufferPointer {
            JournalLine.head(UnsafeBufferPointer(rebasing: $0.dropLast()))
        }
        #expect(head?.whole == true && head?.revision == 7 && head?.kind == .deleted)
        // An undo of a change that kept only the value after it is refused, not a no-op.
        let kept = HistoryEntry(
            revision: 8, timestamp: 1, id: "tea", kind: .modified, source: .otherProgram,
            operation: nil, changes: [], value: nil, isLate: true, fingerprint: nil,
            keyframe: ["title": "Tea"])
        #expect(HistoryUndo.reverting(kept, current: ["title": "Tea"]) == .unknown)
    }

    @Test("a store that keeps no history writes no journal and says so when asked")
    func off() throws {
        var options = JSONStore.Options()
        options.keepsHistory = false
        let temp = try TemporaryStore(options: options)
        try temp.store.put("a", ["n": 1])
        #expect(!FileManager.default.fileExists(atPath: temp.path + "/.jsonstore/journal"))
        #expect(throws: StoreError.self) { try temp.store.history() }
    }
}
