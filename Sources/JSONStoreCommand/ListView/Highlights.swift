import JSONStore

/// Rows that changed a moment ago: inserted ones green, modified ones yellow, for a
/// second each.
struct Highlights {
    enum Kind { case inserted, modified }

    /// How long a row stays highlighted, in seconds.
    static let duration = 1.0

    private(set) var rows: [UTF8Key: (kind: Kind, until: Double)] = [:]

    /// Highlights what `changes` inserted and modified, from `now`.
    mutating func mark(_ changes: ChangeSet<Item>, now: Double) {
        for item in changes.inserted { rows[UTF8Key(item.id)] = (.inserted, now + Self.duration) }
        for modification in changes.modified {
            rows[UTF8Key(modification.new.id)] = (.modified, now + Self.duration)
        }
    }

    /// The highlight of the item `id` at `now`, if it has one.
    func kind(of id: String, now: Double) -> Kind? {
        guard let highlight = rows[UTF8Key(id)], highlight.until > now else { return nil }
        return highlight.kind
    }

    /// Drops the highlights that have run out; returns when the next one does, if any.
    mutating func expire(now: Double) -> Double? {
        rows = rows.filter { $0.value.until > now }
        return rows.values.map(\.until).min()
    }
}
