import TestSupport
import Testing

@testable import JSONStore

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
                #expect(
                    tree.updateValue("v\(step)", forKey: key)
                        == model.updateValue("v\(step)", forKey: key))
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

    @Test("a compact map on the tree's shape equals a tree built afresh, and stays editable")
    func compactMapKeepsShape() {
        var random = SeededRandom(seed: 3)
        let tree = SortedTree<Int, Int>(sortedDistinct: (0..<5_000).map { ($0, $0) })
        let kept = Set((0..<5_000).filter { _ in Int.random(in: 0..<3, using: &random) != 0 })
        var mapped = tree.compactMap { key, value in kept.contains(key) ? (key, "v\(value)") : nil }
        mapped._checkInvariants()
        let fresh = SortedTree<Int, String>(sortedDistinct: kept.sorted().map { ($0, "v\($0)") })
        var (got, want): ([String], [String]) = ([], [])
        mapped.forEach { key, value in got.append("\(key)=\(value)") }
        fresh.forEach { key, value in want.append("\(key)=\(value)") }
        #expect(got == want)
        #expect(mapped.rank(of: 4_999) == fresh.rank(of: 4_999))
        mapped.updateValue("new", forKey: 10_000)
        mapped.removeValue(forKey: kept.min()!)
        mapped._checkInvariants()
        #expect(mapped.count == kept.count)
    }

    @Test("a tree of three levels grown and emptied again keeps every invariant on the way")
    func growAndShrink() {
        var random = SeededRandom(seed: 7)
        var tree = SortedTree<Int, Int>()
        var model: Set<Int> = []
        let keys = (0..<30_000).shuffled(using: &random)
        for (step, key) in keys.enumerated() {
            tree.updateValue(key, forKey: key)
            model.insert(key)
            if step % 3_001 == 0 { tree._checkInvariants() }
        }
        tree._checkInvariants()
        #expect(tree.count == 30_000)
        // The iterator, the walk and the positions agree.
        var iterated: [Int] = []
        var iterator = tree.makeIterator()
        while let (key, _) = iterator.next() { iterated.append(key) }
        var walked: [Int] = []
        tree.forEach { key, _ in walked.append(key) }
        #expect(iterated == Array(0..<30_000))
        #expect(walked == iterated)
        #expect((0..<30_000).allSatisfy { tree.element(at: $0).key == $0 })
        #expect((0..<30_000).allSatisfy { tree.rank(of: $0) == $0 })
        for (step, key) in keys.shuffled(using: &random).enumerated() {
            #expect(tree.removeValue(forKey: key) == key)
            model.remove(key)
            if step % 2_999 == 0 {
                tree._checkInvariants()
                #expect(tree.count == model.count)
            }
        }
        #expect(tree.isEmpty)
        #expect(tree.removeValue(forKey: 1) == nil)
    }

    @Test("a built tree costs its elements and a few bytes more each, not a node each")
    func compact() {
        let n = 100_000
        let tree = SortedTree<Int, Int>(sortedDistinct: (0..<n).map { ($0, $0) })
        tree._checkInvariants()
        let stride = MemoryLayout<(Int, Int)>.stride
        let bytes = MemoryUsage.nodes(of: tree)
        #expect(bytes >= n * stride)
        #expect(bytes <= n * (stride + 4), "\(bytes) bytes for \(n) elements of \(stride)")
        // An edit copies its path: a leaf and one node a level, each at its own width.
        var edited = tree
        edited.updateValue(-1, forKey: n / 2)
        edited.updateValue(-1, forKey: n + 1)
        let leaf = stride * SortedTree<Int, Int>.leafCapacity
        #expect(MemoryUsage.nodes(of: edited) - bytes < 2 * 3 * leaf)
        #expect(tree[n / 2] == n / 2 && edited[n / 2] == -1 && edited.count == n + 1)
    }
}
