/// What changed in grouped results, by section, in Realm's index spaces for sectioned
/// results (`SectionedResultsChange`): what UIKit's batch updates of a sectioned table
/// take as they are.
///
/// Deletions and modifications are paths in the previous results, insertions and
/// `sectionsToInsert` in the new ones, `sectionsToDelete` in the previous ones. The rows
/// of a section that is inserted or deleted are not listed: the section brings or takes
/// them. An item whose group value changed is a deletion from its old section and an
/// insertion into its new one; an item holding an array, for each element it lost or
/// gained. Every array is in ascending order.
///
/// For example, applied as a sectioned table applies Realm's:
///
/// ```swift
/// let s = changes.sections
/// table.performBatchUpdates {
///     table.deleteRows(at: s.deletions)
///     table.insertRows(at: s.insertions)
///     table.reloadRows(at: s.modifications)
///     table.insertSections(s.sectionsToInsert)
///     table.deleteSections(s.sectionsToDelete)
/// }
/// ```
///
/// Empty for results that are not grouped.
public struct SectionChanges: Sendable, Equatable {
    /// The rows removed, by their place in the previous results.
    public let deletions: [RowPath]
    /// The rows added, by their place in the new results.
    public let insertions: [RowPath]
    /// The rows changed in place, by their place in the previous results.
    public let modifications: [RowPath]
    /// The same rows by their place in the new results, in the same order.
    public let modificationsNew: [RowPath]
    /// The indices in the new results of the sections that appeared.
    public let sectionsToInsert: [Int]
    /// The indices in the previous results of the sections that went.
    public let sectionsToDelete: [Int]
    /// The indices in the new results of the sections that stayed and whose count or
    /// aggregates changed (`Results.Section.count`, `sum(of:)`): what a view of counts
    /// redraws.
    public let recounted: [Int]

    static let none = SectionChanges(
        deletions: [], insertions: [], modifications: [], modificationsNew: [],
        sectionsToInsert: [], sectionsToDelete: [], recounted: [])

    /// Whether no section changed and no row moved in or out of one.
    public var isEmpty: Bool {
        deletions.isEmpty && insertions.isEmpty && modifications.isEmpty
            && sectionsToInsert.isEmpty && sectionsToDelete.isEmpty && recounted.isEmpty
    }

    /// Whether the sections' values or figures changed: a section came or went, or its
    /// count or aggregates changed.
    public var changesFigures: Bool {
        !sectionsToInsert.isEmpty || !sectionsToDelete.isEmpty || !recounted.isEmpty
    }
}

/// A row of grouped results: its section and its place in the section, as a sectioned
/// table's index path (`IndexPath(row: path.row, section: path.section)`).
public struct RowPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let section: Int
    public let row: Int

    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    public static func < (a: RowPath, b: RowPath) -> Bool {
        (a.section, a.row) < (b.section, b.row)
    }

    public var description: String { "[\(section), \(row)]" }
}
