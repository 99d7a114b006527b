@testable import JSONStore
import TestSupport
import Testing

@Suite("Persistent sorted tree")
struct SortedTreeTests {
    @Test("random inserts and removals agree with a sorted array; old versions stay intact")
    func againstModel() {
        var random = SeededRandom(seed: 42)
        var tree = SortedTree<Int, String>()
        var model: [Int: String] = [:]
        var versions: [(SortedTree<Int, String>, [Int: String])] = []
        for step in 0..<5_000 {
            let key = Int.random(in: 0..<500, using: &random)
            if Bool.random(using: &random) {
                #expect(tree.updateValue("v\(step)", forKey: key) == model.updateValue("v\(step)", forKey: key))
            } else {
                #expect(tree.removeValue(forKey: key) == model.removeValue(forKey: key))
            }
            if step % 500 == 0 { versions.append((tree, model)) }
        }
        tree._checkInvariants()
        let keys = model.keys.sorted()
        #expect(tree.count == keys.count)
        for (index, key) in keys.enumerated() {
            #expect(tree.rank(of: key) == index)
            #expect(tree.element(at: index).key == key)
            #expect(tree[key] == model[key])
        }
        #expect(tree.rank(of: -1) == 0)
        #expect(tree.rank(of: 1_000) == keys.count)
        // Every saved version still reads as it was when saved.
        for (old, oldModel) in versions {
            old._checkInvariants()
            var visited: [Int] = []
            old.forEach { key, value in
                visited.append(key)
                #expect(oldModel[key] == value)
            }
            #expect(visited == oldModel.keys.sorted())
        }
    }

    @Test("building from sorted elements gives a valid tree")
    func bulkBuild() {
        let tree = SortedTree<Int, Int>(sortedDistinct: (0..<10_000).map { ($0 * 2, $0) })
        tree._checkInvariants()
        #expect(tree.count == 10_000)
        #expect(tree.rank(of: 5) == 3)
        #expect(tree.element(at: 9_999).key == 19_998)
        #expect(SortedTree<Int, Int>(sortedDistinct: []).isEmpty)
    }
}

@Suite("Change sets against a model")
struct ChangeSetModelTests {
    func item(_ id: String, _ rank: Int, _ v: Int) -> Item {
        let object: JSONObject = ["id": .string(id), "rank": .number(JSONNumber(rank)), "v": .number(JSONNumber(v))]
        return Item(id: id, object: object, fingerprint: Fingerprint(Array("\(rank)-\(v)".utf8)))
    }

    @Test("applying each change set to the previous list gives the new results", arguments: [
        Query.all,
        Query.all.sorted(by: "rank"),
        Query.all.filter { ($0["v"]?.intValue ?? 0) % 3 != 0 }.sorted(by: "rank", descending: true),
    ])
    func randomChanges(query: Query) {
        var random = SeededRandom(seed: 7)
        var snapshot = StoreSnapshot()
        var results = Results<Item>.initial(query, snapshot, coder: .items)
        for round in 0..<500 {
            var changes: [EntryChange] = []
            var touched: Set<String> = []
            let old = snapshot
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let id = "k\(Int.random(in: 0..<30, using: &random))"
                guard touched.insert(id).inserted else { continue }
                switch Int.random(in: 0..<4, using: &random) {
                case 0: snapshot.entries.removeValue(forKey: UTF8Key(id))
                case 1:  // becomes invalid, keeping its value
                    if let entry = snapshot.entries[UTF8Key(id)] {
                        let error = StoreError(code: .invalidJSON, message: "bad \(round)")
                        snapshot.entries.updateValue(Entry(item: entry.item, error: error), forKey: UTF8Key(id))
                    }
                default:
                    let new = item(id, Int.random(in: 0..<5, using: &random), Int.random(in: 0..<9, using: &random))
                    snapshot.entries.updateValue(Entry(item: new, error: nil), forKey: UTF8Key(id))
                }
                changes.append(EntryChange(id: id, old: old.entries[UTF8Key(id)], new: snapshot.entries[UTF8Key(id)]))
            }
            snapshot.version += 1
            let previous = results.map(\.id)
            let (next, changeSet) = results.applying(changes, names: [], snapshot: snapshot)
            // The incremental results equal results built from scratch.
            let fresh = Results<Item>.initial(query, snapshot, coder: .items)
            #expect(next.map(\.id) == fresh.map(\.id))
            #expect(next.map(\.object) == fresh.map(\.object))
            // Iteration and indexing agree.
            #expect(next.map(\.id) == (0..<next.count).map { next[$0].id })
            var list = previous
            for index in changeSet.deletions.reversed() { list.remove(at: index) }
            for index in changeSet.insertions { list.insert(next[index].id, at: index) }
            #expect(list == next.map(\.id))
            // The element lists are by identity: what left, what entered, what stayed and
            // changed (moved or not), against the model.
            let (before, after) = (Set(previous), Set(next.map(\.id)))
            #expect(Set(changeSet.deleted.map(\.id)) == before.subtracting(after))
            #expect(Set(changeSet.inserted.map(\.id)) == after.subtracting(before))
            let changed = Set(changes.filter { change in
                guard let old = change.old, let new = change.new else { return false }
                return !old.sameAs(new)
            }.map(\.id))
            #expect(Set(changeSet.modified.map(\.new.id)) == changed.intersection(before).intersection(after))
            #expect(changeSet.modified.count == changeSet.modifications.count + changeSet.moves.count)
            for (k, index) in changeSet.modifications.enumerated() {
                #expect(previous[index] == changeSet.modified[k].old.id)
                #expect(next[changeSet.modificationsNew[k]].id == changeSet.modified[k].new.id)
            }
            results = next
        }
    }
}
