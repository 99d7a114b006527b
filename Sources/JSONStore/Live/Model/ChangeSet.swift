/// How results changed from one version to the next.
///
/// The index arrays are by position, Realm's and UIKit's `performBatchUpdates`
/// convention: `deletions` and `modifications` are indices in the previous results,
/// `insertions` in the new results, each ascending. Removing `deletions` (descending) and
/// then inserting `insertions` (ascending) turns the previous results into the new ones
/// exactly. An element whose sort value changed moved: it is a deletion plus an
/// insertion there, and `moves` pairs the two.
///
/// The element lists are by identity: `inserted` holds the elements that entered the
/// results, `deleted` those that left (their last value), and `modified` every element
/// that stayed and changed, moved or not, with its old and new value. So a task whose
/// priority changed is in `modified`, never in `inserted` and `deleted`. An element's
/// position is in the index arrays and the new results (`results[i]`).
///
/// In results grouped by a member holding an array (`Query.grouped(by:)`), an item is a
/// row of each section it is in, and these lists are by row: an item whose array lost an
/// element is a deletion (in `deleted`) while it stays in its other sections, one that
/// left for another element is a move.
///
/// For example:
///
/// ```swift
/// for task in changes.inserted { print("new:", task.title) }
/// for m in changes.modified { print(m.old.priority, "->", m.new.priority) }
/// for task in changes.deleted { print("gone:", task.title) }
/// ```
public struct ChangeSet<Element: Sendable>: Sendable {
    /// A row that moved: its index in the previous results and in the new ones.
    public struct Move: Sendable, Hashable {
        public let from: Int
        public let to: Int
    }

    /// A changed element: its previous and its new value (equal when only its validity
    /// changed: see `Results.error(for:)`), and which members of its item changed.
    public struct Modification: Sendable {
        public let old: Element
        public let new: Element
        /// The members of the item that changed, with their values before and after: paths
        /// into the item's JSON (what its file holds, for typed results too), in the new
        /// value's order, then the members removed. Empty when only the item's validity,
        /// or its members' order, changed.
        public let changes: [MemberChange]

        init(old: Element, new: Element, changes: [MemberChange] = []) {
            self.old = old
            self.new = new
            self.changes = changes
        }

        /// Whether the member `member` changed: a name (`"status"`), a dotted path as
        /// `--where` reads it (`"owner.name"`), or a JSON Pointer (`"/tags/0"`). A member
        /// counts as changed when it, something inside it, or the value holding it did.
        public func changed(_ member: String) -> Bool {
            MemberChange.touched(changes, MemberChange.pointer(member))
        }
    }

    /// The store version of the new results.
    public let version: Int
    /// Indices in the previous results of the rows removed (moved rows included), ascending.
    public let deletions: [Int]
    /// Indices in the new results of the rows added (moved rows included), ascending.
    public let insertions: [Int]
    /// Indices in the previous results of the rows changed in place, ascending.
    public let modifications: [Int]
    /// The same rows' indices in the new results, in the same order.
    public let modificationsNew: [Int]
    /// Rows that changed position because their sort value changed, by `from`.
    public let moves: [Move]
    /// The elements that entered the results, in the order of their new indices.
    public let inserted: [Element]
    /// The elements that stayed and changed: first those changed in place, in the order
    /// of `modifications`, then those that moved, in the order of `moves`.
    public let modified: [Modification]
    /// The elements that left the results (their last value), in the order of their old
    /// indices.
    public let deleted: [Element]
    /// Files that became invalid, or whose error changed, in this batch; for typed
    /// results also items that stopped decoding (the error names the member and where it
    /// is in the file).
    public let invalid: [InvalidFile]
    /// Names of files that were invalid and no longer are (fixed or removed).
    public let resolved: [String]
    /// Conflicts that appeared (or whose kept version changed) in this batch: another
    /// version of an item kept beside it (see `Conflict`), by item id then file.
    public internal(set) var conflicts: [Conflict] = []
    /// Conflicts that ended in this batch: their kept version was removed
    /// (`JSONStore.resolve(_:keeping:)`, or by hand).
    public internal(set) var resolvedConflicts: [Conflict] = []
    /// For grouped results (`Query.grouped(by:)`), the same changes by section, in
    /// Realm's index spaces for sectioned results; empty for others.
    public internal(set) var sections: SectionChanges = .none

    /// Whether nothing changed; such an update is never delivered.
    public var isEmpty: Bool {
        deletions.isEmpty && insertions.isEmpty && modifications.isEmpty && invalid.isEmpty
            && resolved.isEmpty && sections.recounted.isEmpty && conflicts.isEmpty
            && resolvedConflicts.isEmpty
    }
}

extension ChangeSet.Modification: Equatable where Element: Equatable {}
extension ChangeSet.Modification: Hashable where Element: Hashable {}
