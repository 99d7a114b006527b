#if !FUZZING
    @testable import JSONStore
#endif

// The property of grouped results' change sets, shared by the reducer's fuzz target and the
// unit tests: a change set applied to the previous sections as a sectioned table applies
// Realm's (UIKit's batch updates: deletions in the old index space, then insertions in the
// new) gives the sections built afresh, and each section's figures are those of its items.

/// One section as a table holds it: its value and its rows' ids.
struct TableSection: Equatable {
    var key: JSONValue?
    var ids: [String]
}

/// The sections of `results` as a table holds them.
func tableSections(_ results: Results<Item>) -> [TableSection] {
    results.sections.map { TableSection(key: $0.key, ids: $0.map(\.id)) }
}

/// Checks `changes`, the change set from `previous` to `next` (grouped results), against
/// `fresh`, the same query's results built from scratch; `aggregated` is the member the
/// query aggregates, if any.
func requireSections(
    _ changes: ChangeSet<Item>, from previous: Results<Item>, to next: Results<Item>,
    fresh: Results<Item>, aggregated: String?
) throws(PropertyFailure) {
    // The flat change set too: an item in several sections is a row in each.
    var rows = previous.map(\.id)
    for index in changes.deletions.reversed() {
        try require(rows.indices.contains(index), "deletion \(index) out of range")
        rows.remove(at: index)
    }
    for index in changes.insertions {
        try require(index <= rows.count && index < next.count, "insertion \(index) out of range")
        rows.insert(next[index].id, at: index)
    }
    try require(rows == fresh.map(\.id), "the change set does not apply: \(rows)")
    for (from, to) in zip(changes.modifications, changes.modificationsNew) {
        try require(previous[from].id == next[to].id, "modification \(from) -> \(to)")
    }
    for move in changes.moves {
        try require(previous[move.from].id == next[move.to].id, "move \(move)")
    }
    let s = changes.sections
    let old = tableSections(previous)
    let new = tableSections(fresh)
    try require(tableSections(next) == new, "incremental sections differ from fresh ones")
    for list in [
        s.deletions, s.insertions, s.sectionsToInsert.map { RowPath(section: $0, row: 0) },
    ] {
        try require(list == list.sorted() && Set(list).count == list.count, "not ascending")
    }
    // Deletions, in the old index space, last first; never a row of a deleted section.
    var table = old
    let deletedSections = Set(s.sectionsToDelete)
    for path in s.deletions.reversed() {
        try require(!deletedSections.contains(path.section), "row of a deleted section: \(path)")
        try require(
            table.indices.contains(path.section)
                && table[path.section].ids.indices.contains(path.row),
            "deletion \(path) out of range")
        table[path.section].ids.remove(at: path.row)
    }
    for index in s.sectionsToDelete.reversed() {
        try require(table.indices.contains(index), "section \(index) out of range")
        table.remove(at: index)
    }
    // Insertions, in the new index space, first first; a new section comes whole.
    let insertedSections = Set(s.sectionsToInsert)
    for index in s.sectionsToInsert {
        try require(index <= table.count && index < new.count, "section \(index) out of range")
        table.insert(new[index], at: index)
    }
    for path in s.insertions {
        try require(!insertedSections.contains(path.section), "row of a new section: \(path)")
        try require(
            new.indices.contains(path.section) && new[path.section].ids.indices.contains(path.row)
                && path.row <= table[path.section].ids.count,
            "insertion \(path) out of range")
        table[path.section].ids.insert(new[path.section].ids[path.row], at: path.row)
    }
    try require(table == new, "the sectioned change set does not apply: \(table) != \(new)")
    // Modifications: the same item before and after, and exactly those changed in place.
    try require(s.modifications.count == changes.modifications.count, "modifications missing")
    for (before, after) in zip(s.modifications, s.modificationsNew) {
        try require(
            old[before.section].ids[before.row] == new[after.section].ids[after.row],
            "modification \(before) -> \(after) is not one item")
    }
    // Figures: the count and aggregates of each section's items, and which of them changed.
    var recounted: [Int] = []
    for (index, section) in fresh.sections.enumerated() {
        try require(section.count == new[index].ids.count, "count of \(index)")
        guard let aggregated else { continue }
        let numbers = section.compactMap { $0[aggregated]?.doubleValue }
        try require(section.count(of: aggregated) == numbers.count, "numbers of \(index)")
        let sum = section.sum(of: aggregated).map(\.doubleValue)
        try require(
            numbers.isEmpty ? sum == nil : abs(sum! - numbers.reduce(0, +)) < 1e-9,
            "sum of section \(index): \(String(describing: sum)) for \(numbers)")
        try require(
            next.sections[index].sum(of: aggregated) == section.sum(of: aggregated),
            "the live sum of \(index) drifted from the sum made afresh")
        try require(section.min(of: aggregated)?.doubleValue == numbers.min(), "min of \(index)")
        try require(section.max(of: aggregated)?.doubleValue == numbers.max(), "max of \(index)")
        if let before = previous.section(for: section.key),
            before.count != section.count
                || before.count(of: aggregated) != section.count(of: aggregated)
                || before.sum(of: aggregated) != section.sum(of: aggregated)
                || before.min(of: aggregated)?.doubleValue
                    != section.min(of: aggregated)?.doubleValue
                || before.max(of: aggregated)?.doubleValue
                    != section.max(of: aggregated)?.doubleValue
        {
            recounted.append(index)
        }
    }
    if let aggregated {
        try require(
            s.recounted == recounted,
            "recounted \(s.recounted), not \(recounted): \(previous.sections.map { ($0.key, $0.count, $0.count(of: aggregated), $0.sum(of: aggregated), $0.min(of: aggregated), $0.max(of: aggregated)) }) -> \(next.sections.map { ($0.key, $0.count, $0.count(of: aggregated), $0.sum(of: aggregated), $0.min(of: aggregated), $0.max(of: aggregated)) })"
        )
    }
}
