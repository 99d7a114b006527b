import TestSupport

@testable import JSONStore

extension StoreSnapshot {
    /// One round of random edits of the model tests: up to `most` of the ids `k0`…, each
    /// once, removed, made invalid (keeping its value, if it had one), or set to `makeItem(id, &random)`
    /// (one choice in `choices` each for removal and invalidity, the rest new items); the
    /// version moves on. Returns the changes, as the pipeline hands them to results.
    mutating func randomEdits(
        round: Int, most: Int, ids: Int, choices: Int, using random: inout SeededRandom,
        makeItem: (String, inout SeededRandom) -> Item
    ) -> [EntryChange] {
        var changes: [EntryChange] = []
        var touched: Set<String> = []
        let old = self
        for _ in 0..<Int.random(in: 1...most, using: &random) {
            let id = "k\(Int.random(in: 0..<ids, using: &random))"
            guard touched.insert(id).inserted else { continue }
            let key = UTF8Key(id)
            switch Int.random(in: 0..<choices, using: &random) {
            case 0: setEntry(nil, for: key)
            case 1:
                // Invalid: keeping its last value, or with none (a file invalid since it
                // appeared, a hole in the results of every item).
                let error = StoreError(code: .invalidJSON, message: "bad \(round)")
                setEntry(Entry(item: entries[key]?.item(id: id), error: error), for: key)
            default:
                setEntry(Entry(item: makeItem(id, &random), error: nil), for: key)
            }
            changes.append(EntryChange(id: id, old: old.entries[key], new: entries[key]))
        }
        version += 1
        return changes
    }
}
