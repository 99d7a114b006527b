import TestSupport
import Testing

@testable import JSONStore

@Suite("The table of the journal's heads")
struct HeadTableTests {
    @Test("random sets agree with a dictionary; every field and 'no entry' read back")
    func againstDictionary() {
        var random = SeededRandom(seed: 11)
        var table = HeadTable()
        var model: [UTF8Key: JournalHeads.Head?] = [:]
        var saved: (HeadTable, [UTF8Key: JournalHeads.Head?])?
        for step in 0..<20_000 {
            let key = UTF8Key("item-\(Int.random(in: 0..<5_000, using: &random))")
            var head: JournalHeads.Head?
            if Int.random(in: 0..<8, using: &random) != 0 {
                let kinds: [HistoryEntry.Kind] = [.created, .modified, .deleted]
                let size = [0, 117, Int(UInt32.max) + 5][Int.random(in: 0..<3, using: &random)]
                head = JournalHeads.Head(
                    revision: step + 1, kind: kinds[step % 3],
                    fingerprint: Bool.random(using: &random)
                        ? Fingerprint(size: size, hash: random.next()) : nil,
                    sinceKeyframe: Int.random(in: 0...17, using: &random),
                    wholeAt: Int.random(in: 0...step, using: &random))
            }
            table.set(head, for: key)
            model[key] = .some(head)
            if step == 10_000 { saved = (table, model) }
        }
        #expect(table.count == model.count)
        for (key, head) in model { #expect(table[key] == .some(head)) }
        #expect(table[UTF8Key("never")] == nil)
        var seen = 0
        table.forEach { key, head in
            seen += 1
            #expect(model[key] == .some(head))
        }
        #expect(seen == model.count)
        // A copy taken earlier is as it was.
        let (old, oldModel) = saved!
        #expect(old.count == oldModel.count)
        for (key, head) in oldModel { #expect(old[key] == .some(head)) }
    }

    @Test("heads looked up on every core are the ones looked up one by one")
    func lookedUpTogether() {
        var table = HeadTable()
        var keys: [UTF8Key] = []
        for n in 0..<3_000 {
            let key = UTF8Key("item-\(n)")
            keys.append(key)
            // Every fifth never known; every seventh known to have no entry.
            if n % 5 == 0 { continue }
            let head =
                n % 7 == 0
                ? nil
                : JournalHeads.Head(
                    revision: n, kind: .modified, fingerprint: nil, sinceKeyframe: 0, wholeAt: 0)
            table.set(head, for: key)
        }
        keys.shuffle()
        let (shuffled, oneByOne) = (keys, keys.map { table[$0] })
        for threshold in [0, 64, .max] {
            let together = table.lookUp(keys.count, parallelAbove: threshold) { shuffled[$0] }
            #expect(together == oneByOne)
        }
        #expect(oneByOne.contains { $0 == nil } && oneByOne.contains { $0 == .some(nil) })
    }

    @Test("a hundred thousand heads take under 100 bytes each, not a dictionary's 160")
    func compact() {
        var table = HeadTable()
        let head = JournalHeads.Head(
            revision: 1, kind: .created, fingerprint: Fingerprint(size: 117, hash: 9),
            sinceKeyframe: 0, wholeAt: 1)
        for i in 0..<100_000 { table.set(head, for: UTF8Key("item-\(i)")) }
        #expect(table.footprint < 100 * 100_000, "\(table.footprint) bytes")
        #expect(table[UTF8Key("item-99999")] == .some(head))
    }

    @Test("updating a known id takes no room, even with the table at its limit")
    func updateTakesNoRoom() {
        var table = HeadTable()
        // Sixteen slots hold eight ids at most half full.
        for i in 0..<8 { table.set(nil, for: UTF8Key("item-\(i)")) }
        let footprint = table.footprint
        let head = JournalHeads.Head(
            revision: 9, kind: .modified, fingerprint: nil, sinceKeyframe: 1, wholeAt: 0)
        for i in 0..<8 { table.set(head, for: UTF8Key("item-\(i)")) }
        #expect(table.footprint == footprint)
        #expect(table.count == 8 && table[UTF8Key("item-3")] == .some(head))
    }

    @Test("a table reserved for its ids is made once at their size, and finds every one")
    func reserved() {
        let head = JournalHeads.Head(
            revision: 1, kind: .created, fingerprint: Fingerprint(size: 117, hash: 9),
            sinceKeyframe: 0, wholeAt: 1)
        var grown = HeadTable()
        var reserved = HeadTable()
        for i in 0..<10 { reserved.set(head, for: UTF8Key("early-\(i)")) }
        reserved.reserve(reserved.count + 70_000)
        let made = reserved.footprint
        for i in 0..<70_000 {
            grown.set(head, for: UTF8Key("item-\(i)"))
            reserved.set(head, for: UTF8Key("item-\(i)"))
        }
        // No growth after the reservation; doubling ends at 131,072 entries' room.
        #expect(reserved.footprint == made)
        #expect(reserved.footprint < grown.footprint, "\(reserved.footprint) vs \(grown.footprint)")
        #expect(reserved.count == 70_010)
        for i in stride(from: 0, to: 70_000, by: 997) {
            #expect(reserved[UTF8Key("item-\(i)")] == .some(head))
        }
        #expect(reserved[UTF8Key("early-3")] == .some(head))
        // Room for fewer than it holds changes nothing.
        reserved.reserve(10)
        #expect(reserved.footprint == made)
    }
}
