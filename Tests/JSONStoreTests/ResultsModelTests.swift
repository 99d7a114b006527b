import TestSupport
import Testing

@testable import JSONStore

/// `Results.applying` under random changes, each change set checked against results built
/// afresh from the new snapshot: the index arrays apply, and the element lists say what
/// left, entered, and stayed and changed.
@Suite("Change sets against a model")
struct ResultsModelTests {
    func item(_ id: String, _ rank: Int, _ v: Int) -> Item {
        let object: JSONObject = [
            "id": .string(id), "rank": .number(JSONNumber(rank)), "v": .number(JSONNumber(v)),
        ]
        return Item(id: id, object: object, fingerprint: Fingerprint(Array("\(rank)-\(v)".utf8)))
    }

    @Test(
        "applying each change set to the previous list gives the new results",
        arguments: [
            Query.all,
            Query.all.sorted(by: "rank"),
            Query.all.filter { ($0["v"]?.intValue ?? 0) % 3 != 0 }.sorted(
                by: "rank", descending: true),
        ])
    func randomChanges(query: Query) {
        var random = SeededRandom(seed: 7)
        var snapshot = StoreSnapshot()
        var results = Results<Item>.initial(query, snapshot, coder: .items)
        for round in 0..<500 {
            let changes = snapshot.randomEdits(
                round: round, most: 6, ids: 30, choices: 4, using: &random
            ) { id, random in
                item(
                    id, Int.random(in: 0..<5, using: &random), Int.random(in: 0..<9, using: &random)
                )
            }
            let previous = results.map(\.id)
            let (next, changeSet) = results.applying(changes, names: [], snapshot: snapshot)
            // The incremental results equal results built from scratch.
            let fresh = Results<Item>.initial(query, snapshot, coder: .items)
            #expect(next.map(\.id) == fresh.map(\.id))
            #expect(next.map(\.object) == fresh.map(\.object))
            // Iteration and indexing agree; in id order, the results are the entries with
            // an item (those sharing the snapshot's tree skip the entries with none).
            #expect(next.map(\.id) == (0..<next.count).map { next[$0].id })
            // Any run's items handed as their text in place are the items' own, in order.
            if !next.isEmpty {
                let lower = Int.random(in: 0..<next.count, using: &random)
                let run = lower..<Int.random(in: lower...next.count, using: &random)
                var texts: [String] = []
                next.forEachItemText(in: run) { id, text in texts.append("\(id) \(Array(text))") }
                #expect(texts == run.map { "\(next[$0].id) \(next[$0].bytes.array)" })
            }
            if query.selectsEveryItemByID {
                var items: [String] = []
                snapshot.entries.forEach { id, entry in
                    if entry.hasItem { items.append(id.string) }
                }
                #expect(next.map(\.id) == items)
                #expect(items.allSatisfy { next.index(ofID: $0).map { next[$0].id } == $0 })
            }
            var list = previous
            for index in changeSet.deletions.reversed() { list.remove(at: index) }
            for index in changeSet.insertions { list.insert(next[index].id, at: index) }
            #expect(list == next.map(\.id))
            // The element lists are by identity: what left, what entered, what stayed and
            // changed (moved or not), against the model.
            let (before, after) = (Set(previous), Set(next.map(\.id)))
            #expect(Set(changeSet.deleted.map(\.id)) == before.subtracting(after))
            #expect(Set(changeSet.inserted.map(\.id)) == after.subtracting(before))
            let changed = Set(
                changes.filter { change in
                    guard let old = change.old, let new = change.new else { return false }
                    return !old.sameAs(new, id: change.id)
                }.map(\.id))
            #expect(
                Set(changeSet.modified.map(\.new.id))
                    == changed.intersection(before).intersection(after))
            #expect(
                changeSet.modified.count == changeSet.modifications.count + changeSet.moves.count)
            for (k, index) in changeSet.modifications.enumerated() {
                #expect(previous[index] == changeSet.modified[k].old.id)
                #expect(next[changeSet.modificationsNew[k]].id == changeSet.modified[k].new.id)
            }
            for move in changeSet.moves {
                #expect(previous[move.from] == next[move.to].id)
            }
            results = next
        }
    }
}
