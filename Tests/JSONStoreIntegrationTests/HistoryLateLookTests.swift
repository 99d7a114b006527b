import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// A look that finds many items changed while nothing ran asks the journal what it last
/// recorded of each: with one read of it for them all (`Journal.lastValues`), not a search
/// each back to the item's creation.
@Suite("History: what a late look finds of many items")
struct HistoryLateLookTests {
    /// 120 items in a journal of small segments: item `i` updated `i % 20` times after its
    /// creation (so some across a keyframe), every tenth deleted, every twentieth made again.
    private func journaled() throws -> TemporaryStore {
        var options = JSONStore.Options()
        options.journalSegmentLimit = 16 << 10
        let temp = try TemporaryStore(options: options)
        let count = 120
        try temp.store.write { tx in
            for i in 0..<count { try tx.put("item-\(i)", ["n": .number(JSONNumber(i)), "r": 0]) }
        }
        for round in 1..<20 {
            try temp.store.write { tx in
                for i in 0..<count where i % 20 >= round {
                    try tx.put(
                        "item-\(i)",
                        [
                            "n": .number(JSONNumber(i)), "r": .number(JSONNumber(round)),
                            "tag": .string("t\(round)"),
                        ])
                }
            }
        }
        try temp.store.write { tx in
            for i in stride(from: 0, to: count, by: 10) { try tx.delete("item-\(i)") }
        }
        try temp.store.write { tx in
            for i in stride(from: 0, to: count, by: 20) { try tx.put("item-\(i)", ["again": true]) }
        }
        return temp
    }

    @Test("one read of the journal rebuilds each item as a search of it does")
    func oneRead() throws {
        let temp = try journaled()
        let journal = try #require(temp.store.history).journal
        #expect(journal.segments().count > 3)
        let keys = (0..<120).map { UTF8Key("item-\($0)") } + [UTF8Key("never")]
        let searched = Dictionary(
            uniqueKeysWithValues: keys.compactMap { key in
                journal.lastValue(of: key.string).map { (key, $0) }
            })
        #expect(searched.count == 120 - 6)
        #expect(searched[UTF8Key("item-20")] == ["again": true])
        #expect(searched[UTF8Key("item-19")]?["r"] == 19)
        // Where each whole value is (the heads' mark), from the beginning, and a mark too
        // new for an item whose last entry is a patch (searched for alone then).
        let heads = keys.map { journal.head(of: $0.string) }
        let marks: [String: (Int, JournalHeads.Head?) -> Int] = [
            "the heads' mark": { _, head in head?.wholeAt ?? 0 },
            "the beginning": { _, _ in 0 },
            "the last entry": { _, head in head?.revision ?? 0 },
        ]
        for (name, mark) in marks {
            var wanted: [UTF8Key: Int] = [:]
            for (i, key) in keys.enumerated() { wanted[key] = mark(i, heads[i]) }
            #expect(journal.lastValues(of: wanted) == searched, "from \(name)")
        }
        let some = [UTF8Key("item-29"): heads[29]?.wholeAt ?? 0, UTF8Key("item-10"): 0]
        #expect(journal.lastValues(of: some) == [UTF8Key("item-29"): searched[UTF8Key("item-29")]!])
    }

    @Test("an item whose entries were pruned has no value, as a search of it finds none")
    func prunedValues() throws {
        var options = JSONStore.Options()
        options.journalSegmentLimit = 16 << 10
        options.historyMaxBytes = 48 << 10
        let temp = try TemporaryStore(options: options)
        let count = 60
        try temp.store.write { tx in
            for i in 0..<count { try tx.put("item-\(i)", ["n": .number(JSONNumber(i))]) }
        }
        // The marks of the first items, taken while their creation is still kept.
        let journal = try #require(temp.store.history).journal
        let keys = (0..<count).map { UTF8Key("item-\($0)") }
        let marks = keys.map { journal.head(of: $0.string)?.wholeAt ?? 0 }
        #expect(journal.firstRevision == 1)
        // The later items updated until the oldest segments are pruned.
        for round in 1...40 {
            try temp.store.write { tx in
                for i in (count / 2)..<count {
                    try tx.put(
                        "item-\(i)",
                        [
                            "n": .number(JSONNumber(i)), "r": .number(JSONNumber(round)),
                            "pad": .string(String(repeating: "x", count: 200)),
                        ])
                }
            }
        }
        let oldest = journal.firstRevision
        #expect(oldest > 1)
        let pruned = keys.indices.filter { marks[$0] < oldest }
        #expect(!pruned.isEmpty)
        var wanted: [UTF8Key: Int] = [:]
        for (i, key) in keys.enumerated() { wanted[key] = marks[i] }
        let searched = Dictionary(
            uniqueKeysWithValues: keys.compactMap { key in
                journal.lastValue(of: key.string).map { (key, $0) }
            })
        #expect(journal.lastValues(of: wanted) == searched)
        for i in pruned where i < count / 2 { #expect(searched[keys[i]] == nil, "\(keys[i])") }
        #expect(searched[keys[count - 1]]?["r"] == 40)
    }

    @Test("a late look at many items changed by hand records each one's patch from the last")
    func lateLook() throws {
        let temp = try journaled()
        let history = try #require(temp.store.history)
        let before = try temp.store.history().count
        var expected: [String: [MemberChange]] = [:]
        var deleted: [String: JSONObject] = [:]
        for i in 0..<120 {
            let id = "item-\(i)"
            guard let last = history.recordedValue(of: id) else { continue }
            if i % 3 == 0 {
                try FileManager.default.removeItem(atPath: temp.path + "/\(id).json")
                deleted[id] = last
            } else {
                var now = last
                now["n"] = .number(JSONNumber(1_000 + i))
                now["hand"] = true
                try temp.writeFile(
                    "\(id).json",
                    String(decoding: JSONWriter.compact(.object(now)), as: UTF8.self) + "\n")
                expected[id] = MemberChange.between(last, now)
            }
        }
        #expect(expected.count + deleted.count > StoreHistory.lookupsAtMost)
        let late = try temp.store.history().filter(\.isLate)
        #expect(late.count == expected.count + deleted.count)
        #expect(try temp.store.history().count == before + late.count)
        for entry in late {
            switch entry.kind {
            case .modified:
                #expect(entry.changes == expected[entry.id], "\(entry.id)")
            case .deleted:
                #expect(entry.value == deleted[entry.id], "\(entry.id)")
            case .created:
                Issue.record("\(entry.id) recorded as made")
            }
        }
    }
}
