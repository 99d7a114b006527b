import TestSupport
import Testing

@testable import JSONStore

@Suite("The journal's heads held by their rank in a snapshot")
struct BoundHeadsTests {
    /// A tree of `count` ids ("item-00000" on) whose entries have fingerprints of their own,
    /// every eleventh an invalid file with no valid value (no fingerprint).
    static func tree(_ count: Int) -> SortedTree<UTF8Key, Entry> {
        SortedTree(
            sortedDistinctCount: count,
            key: { UTF8Key(id($0)) },
            value: { n in
                n % 11 == 0
                    ? Entry(item: nil, error: StoreError(code: .io, message: "bad", file: id(n)))
                    : Entry(bytes: ItemBytes([UInt8]("{}".utf8)), fingerprint: fingerprint(n)!)
            })
    }

    static func id(_ n: Int) -> String { "item-" + String(100_000 + n).dropFirst() }

    static func fingerprint(_ n: Int) -> Fingerprint? {
        n % 11 == 0 ? nil : Fingerprint(size: 2, hash: UInt64(n) &* 0x9E37_79B9)
    }

    @Test("a bound table agrees with a dictionary: heads that fit, that do not, and others")
    func againstDictionary() {
        var random = SeededRandom(seed: 29)
        let tree = Self.tree(3_000)
        var table = HeadTable(boundTo: tree)
        var model: [UTF8Key: JournalHeads.Head?] = [:]
        let kinds: [HistoryEntry.Kind] = [.created, .modified, .deleted]
        for step in 1...30_000 {
            // Ids of the tree, mostly, and some it does not hold.
            let n = Int.random(in: 0..<3_300, using: &random)
            let key = UTF8Key(n < 3_000 ? Self.id(n) : "gone-\(n)")
            var head: JournalHeads.Head?
            if Int.random(in: 0..<9, using: &random) != 0 {
                // The entry's fingerprint mostly (it fits), another or none sometimes;
                // fields that fit and some that do not.
                let fingerprint: Fingerprint? =
                    switch Int.random(in: 0..<8, using: &random) {
                    case 0: Fingerprint(size: 2, hash: random.next())
                    case 1: nil
                    default: n < 3_000 ? Self.fingerprint(n) : nil
                    }
                // Revisions and distances back to a whole value at the limits of what fits.
                let revision = [step, step + (1 << 35), step * 1_000, (1 << 35) - 1][
                    step % 7 == 0 ? 1 : step % 11 == 0 ? 3 : step % 2 * 2]
                let whole = [
                    0, revision, revision - 3, revision - (1 << 20) - 1, revision + 1,
                    revision - (1 << 20) + 1, revision - (1 << 20) + 2,
                ]
                head = JournalHeads.Head(
                    revision: revision, kind: kinds[step % 3], fingerprint: fingerprint,
                    sinceKeyframe: [0, 5, 31, 32, 200][Int.random(in: 0..<5, using: &random)],
                    wholeAt: whole[Int.random(in: 0..<whole.count, using: &random)])
            }
            if step % 2 == 0 {
                table.set(head, for: key)
            } else {
                table.update(key) { old in
                    #expect(old == model[key], "update sees what is known")
                    return head
                }
            }
            model[key] = .some(head)
        }
        #expect(table.count == model.count)
        for (key, head) in model { #expect(table[key] == .some(head)) }
        #expect(table[UTF8Key("item-99999")] == nil && table[UTF8Key("never")] == nil)
        var seen: [UTF8Key: JournalHeads.Head?] = [:]
        table.forEach { key, head in
            #expect(seen.updateValue(head, forKey: key) == nil, "each id once")
        }
        #expect(seen == model)
        // The same through its lookups on every core, and with the tree let go.
        let keys = Array(model.keys)
        let together = table.lookUp(keys.count, parallelAbove: 64) { keys[$0] }
        #expect(together == keys.map { model[$0] })
        let unbound = table.unbound()
        #expect(unbound.count == model.count)
        for (key, head) in model { #expect(unbound[key] == .some(head)) }
        // A walk of the tree by rank, and of another tree by lookups, give the same heads.
        let other = Self.tree(2_000)
        for walked in [tree, other] {
            var count = 0
            table.forEach(in: walked) { key, entry, head in
                count += 1
                #expect(head == model[key])
                #expect(entry.fingerprint == walked[key]?.fingerprint)
            }
            #expect(count == walked.count)
            var notIn: Set<UTF8Key> = []
            table.forEach(notIn: walked) { key, head in
                #expect(notIn.insert(key).inserted && head == model[key]!)
            }
            #expect(notIn == Set(model.keys.filter { walked[$0] == nil }))
        }
    }

    @Test("a look's heads, each its entry's version, take 8 bytes an id, not 56")
    func compact() {
        let tree = Self.tree(100_000)
        var bound = HeadTable(boundTo: tree)
        var plain = HeadTable()
        bound.reserve(100_000)  // made for the ids of the tree: takes no room
        var n = 0
        tree.forEach { key, entry in
            n += 1
            let head = JournalHeads.Head(
                revision: n, kind: .created, fingerprint: entry.fingerprint, sinceKeyframe: 0,
                wholeAt: n)
            bound.set(head, for: key)
            plain.set(head, for: key)
        }
        #expect(bound.count == 100_000 && plain.count == 100_000)
        #expect(bound.footprint <= 8 * 100_000 + 8_192, "\(bound.footprint) bytes")
        #expect(plain.footprint > 5 * bound.footprint, "\(plain.footprint) bytes")
        let key = UTF8Key(Self.id(4_321))
        #expect(bound[key] == plain[key] && bound[key]??.revision == 4_322)
    }

    @Test("a head that stops fitting moves beside its key, and back when the next fits")
    func movedAndBack() {
        let tree = Self.tree(100)
        var table = HeadTable(boundTo: tree)
        let key = UTF8Key(Self.id(5))
        func head(_ revision: Int, _ fingerprint: Fingerprint?) -> JournalHeads.Head {
            JournalHeads.Head(
                revision: revision, kind: .modified, fingerprint: fingerprint, sinceKeyframe: 1,
                wholeAt: revision - 1)
        }
        table.set(head(1, Self.fingerprint(5)), for: key)
        let bound = table.footprint
        table.set(head(2, Fingerprint(size: 9, hash: 9)), for: key)
        #expect(table.footprint > bound, "held with its key")
        #expect(table.count == 1 && table[key] == .some(head(2, Fingerprint(size: 9, hash: 9))))
        table.set(head(3, Self.fingerprint(5)), for: key)
        table.set(nil, for: UTF8Key(Self.id(6)))
        table.set(head(4, nil), for: UTF8Key("gone"))
        #expect(table.count == 3)
        #expect(table[key] == .some(head(3, Self.fingerprint(5))))
        #expect(table[UTF8Key(Self.id(6))] == .some(nil))
        var walked: [UTF8Key] = []
        table.forEach { key, _ in walked.append(key) }
        #expect(walked.sorted() == [UTF8Key("gone"), key, UTF8Key(Self.id(6))])
        // The room of the head moved back is let go; the others are as they were.
        let before = table.footprint
        table.dropRemoved()
        #expect(table.footprint < before && table.count == 3)
        #expect(table[key] == .some(head(3, Self.fingerprint(5))))
        #expect(table[UTF8Key("gone")] == .some(head(4, nil)))
        // Out of fit again, then set again while it sits beside its key.
        table.set(head(5, nil), for: key)
        table.set(head(6, Fingerprint(size: 1, hash: 1)), for: key)
        #expect(table.count == 3 && table[key] == .some(head(6, Fingerprint(size: 1, hash: 1))))
    }

    @Test("a journal read whole and bound to the store's files: the heads of a plain read")
    func journalReadBound() throws {
        var options = JSONStore.Options()
        options.writerName = "tests"
        let temp = try TemporaryStore(options: options)
        let store = temp.store
        // Items of one version and of many (past a whole value's interval), deleted, made
        // again, and deleted for good.
        for n in 0..<300 { try store.put(Self.id(n), ["rank": .number(JSONNumber(n))]) }
        for round in 1...3 {
            for n in stride(from: 0, to: 300, by: round + 1) {
                try store.update(Self.id(n)) { $0["rank"] = .number(JSONNumber(n * 10 + round)) }
            }
        }
        for k in 0..<20 { try store.update(Self.id(1)) { $0["k"] = .number(JSONNumber(k)) } }
        for n in stride(from: 0, to: 300, by: 7) { try store.delete(Self.id(n)) }
        for n in stride(from: 0, to: 300, by: 14) { try store.put(Self.id(n), ["again": true]) }
        // The snapshot: each file's bytes, as a load has them.
        var elements: [(UTF8Key, Entry)] = []
        for n in 0..<300 {
            guard let text = temp.readFile(Self.id(n) + ".json") else { continue }
            let bytes = Array(text.utf8)
            let entry = Entry(bytes: ItemBytes(bytes), fingerprint: Fingerprint(bytes))
            elements.append((UTF8Key(Self.id(n)), entry))
        }
        let tree = SortedTree(sortedDistinct: elements)
        let journal = try #require(store.history).journal
        var plain = JournalHeads()
        plain.readAll(journal)
        var bound = JournalHeads()
        bound.readAll(journal, boundTo: tree)
        #expect(bound.count == plain.count && plain.count == 300)
        for id in (0..<300).map(Self.id) + ["never"] {
            #expect(bound.head(of: id, in: journal) == plain.head(of: id, in: journal), "\(id)")
        }
        #expect(bound.existing.sorted() == plain.existing.sorted())
        // Every item there now has its head by rank: the deleted ones only with their keys.
        let (small, big) = (bound.knownHeads.footprint, plain.knownHeads.footprint)
        #expect(small * 3 < big, "\(small) bytes, against \(big)")
    }
}
