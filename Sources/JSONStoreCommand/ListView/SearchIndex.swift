import Glibc
import JSONStore

/// The text of every item's row, case-folded to UTF-8 bytes, for the `/` filter.
///
/// Laying out a row (formatting and escaping its cells) costs microseconds; scanning its
/// folded bytes costs nanoseconds. The index lays out each row once and then only the rows
/// a change set touches, so a key typed into the filter of a 100,000-item store scans bytes
/// instead of laying out 100,000 rows.
package struct SearchIndex {
    /// Each item's folded row text, by id.
    private var texts: [UTF8Key: [UInt8]]  // by id, by its bytes

    /// Lays out every row of `results` once.
    ///
    /// - Complexity: O(n) row layouts.
    package init(_ results: Results<Item>, table: Table) {
        texts = Dictionary(minimumCapacity: results.count)
        results.forEachItem { texts[UTF8Key($0.id)] = Self.rowText($0, table: table) }
    }

    /// Keeps the index in step with one update.
    ///
    /// - Complexity: O(changes) row layouts.
    mutating func apply(_ changes: ChangeSet<Item>, table: Table) {
        for item in changes.deleted { texts[UTF8Key(item.id)] = nil }
        for item in changes.inserted { texts[UTF8Key(item.id)] = Self.rowText(item, table: table) }
        for modification in changes.modified {
            texts[UTF8Key(modification.new.id)] = Self.rowText(modification.new, table: table)
        }
    }

    /// The folded text of `item`'s row: from the index, or laid out now.
    func text(of item: Item, table: Table) -> [UInt8] {
        texts[UTF8Key(item.id)] ?? Self.rowText(item, table: table)
    }

    /// The row's text as the filter sees it: the cells, space-separated, folded.
    static func rowText(_ item: Item, table: Table) -> [UInt8] {
        fold(table.cells(item).joined(separator: " "))
    }

    /// `text` lowercased, as UTF-8: bytewise for ASCII, by Unicode rules otherwise.
    static func fold(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        if bytes.allSatisfy({ $0 < 0x80 }) {
            for i in bytes.indices where bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] |= 0x20 }
            return bytes
        }
        return Array(text.lowercased().utf8)
    }

    /// Whether `needle` occurs in `haystack`: `memchr` finds each candidate first byte.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                let base = h.baseAddress!
                let last = h.count - n.count  // the last offset where a match can start
                var offset = 0
                while offset <= last {
                    guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else {
                        return false
                    }
                    let start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + start, n.baseAddress!, n.count) == 0 { return true }
                    offset = start + 1
                }
                return false
            }
        }
    }
}
