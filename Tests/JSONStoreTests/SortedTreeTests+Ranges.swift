import TestSupport
import Testing

@testable import JSONStore

extension SortedTreeTests {
    @Test("a walk from a position gives the elements element(at:) gives, and stops when told")
    func walkFrom() {
        var random = SeededRandom(seed: 7)
        var tree = SortedTree<Int, Int>(sortedDistinct: (0..<20_000).map { ($0 * 3, $0) })
        for _ in 0..<3_000 {
            tree.removeValue(forKey: 3 * Int.random(in: 0..<20_000, using: &random))
        }
        for _ in 0..<200 {
            let start = Int.random(in: 0..<tree.count + 2, using: &random)
            let wanted = Int.random(in: 1..<600, using: &random)
            var walked: [Int] = []
            tree.forEach(from: start) { key, _ in
                walked.append(key)
                return walked.count < wanted
            }
            let expected = (start..<min(tree.count, start + wanted)).map {
                tree.element(at: $0).key
            }
            #expect(walked == expected, "from \(start), \(wanted) elements")
        }
    }

    @Test("results sharing a snapshot walk a range past the items that are not there")
    func resultsRangeSkipsHoles() {
        var random = SeededRandom(seed: 11)
        let ids = (0..<3_000).map { UTF8Key(String(format: "item-%05d", $0)) }
        let entries = SortedTree<UTF8Key, Entry>(
            sortedDistinct: ids.map { id in
                let hole = Int.random(in: 0..<5, using: &random) == 0
                let item =
                    hole ? nil : Item(id: id.string, object: ["n": 1], fingerprint: Fingerprint([]))
                return (id, Entry(item: item, error: nil))
            })
        let snapshot = StoreSnapshot(version: 1, entries: entries, invalid: [:])
        let results = ResultsTree<Item>(entriesOf: snapshot)!
        #expect(results.count < ids.count)
        for _ in 0..<200 {
            let lower = Int.random(in: 0..<results.count, using: &random)
            let range = lower..<min(results.count, lower + Int.random(in: 0..<400, using: &random))
            var walked: [String] = []
            results.forEach(in: range) { walked.append($0.id) }
            #expect(walked == range.map { results.element(at: $0).id }, "\(range)")
        }
    }
}
