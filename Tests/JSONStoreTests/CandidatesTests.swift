import TestSupport
import Testing

@testable import JSONStore

@Suite("The ids a look drafts, a chunk at a time")
struct CandidatesTests {
    @Test("ranks of a tree, near and far apart, then other ids, in any chunks")
    func chunks() {
        let tree = BoundHeadsTests.tree(5_000)
        var keys: [String] = []
        tree.forEach { key, _ in keys.append(key.string) }
        var random = SeededRandom(seed: 5)
        for density in [1, 3, 40, 900] {
            var candidates = StoreHistory.Candidates(in: tree)
            var expected: [String] = []
            for rank in 0..<5_000 where Int.random(in: 0..<density, using: &random) == 0 {
                candidates.append(rank: rank)
                expected.append(keys[rank])
            }
            for n in 0..<7 {
                candidates.append("gone-\(n)")
                expected.append("gone-\(n)")
            }
            #expect(candidates.count == expected.count)
            for size in [1, 5, 64, 4_096] {
                var ids: [String] = []
                for start in stride(from: 0, to: candidates.count, by: size) {
                    let chunk = candidates.chunk(start..<min(start + size, candidates.count))
                    #expect(chunk.count == min(size, candidates.count - start))
                    ids += chunk
                }
                #expect(ids == expected, "density \(density), chunks of \(size)")
            }
        }
        let plain = StoreHistory.Candidates(["b", "a", "c"])
        #expect(plain.count == 3 && plain.chunk(1..<3) == ["a", "c"])
    }
}
