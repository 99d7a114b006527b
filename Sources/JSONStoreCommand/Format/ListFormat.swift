import JSONStore

/// How `list` prints items: `-o table|tsv|json|ndjson|ids`.
///
/// A table is for eyes: fitted to the width, long values cut with `…`. The others are for
/// programs: whole values, never cut. TSV cells are escaped (`\t`, `\n`, control
/// characters), so a row is always one line and a tab always separates two cells.
enum ListFormat: String, CaseIterable {
    case table, tsv, json, ndjson, ids

    /// The format when none is asked for: a table on a terminal, TSV anywhere else.
    static func automatic(terminal: Bool) -> ListFormat { terminal ? .table : .tsv }

    /// Whether `list --follow` in this format is the NDJSON stream.
    var streams: Bool { self == .json || self == .ndjson }

    /// Whether the format shows columns (the others show whole items, or ids).
    var hasColumns: Bool { self == .table || self == .tsv }

    /// Whether a listing in this format can be written a piece at a time, as items are
    /// read: a table fits its columns to every row, and TSV without `--columns` picks the
    /// most common fields of every item, so those need them all first.
    func writesAsRead(columnsGiven: Bool) -> Bool {
        switch self {
        case .json, .ndjson, .ids: true
        case .tsv: columnsGiven
        case .table: false
        }
    }

    /// Writes the listing of `items` to `out`, each line with its newline.
    ///
    /// - Parameters:
    ///   - columns: the columns, `id` first (tables and TSV).
    ///   - headers: whether tables and TSV start with a line of column names.
    ///   - width: the width a table is fitted to.
    func write<C: Collection>(
        _ items: C, columns: [String], headers: Bool, width: Int, to out: inout OutputBuffer
    ) where C.Element == Item {
        if self == .table {
            let lines = Table(columns: columns).lines(for: items, width: width)
            for line in lines.dropFirst(headers ? 0 : 1) { out.line(line) }
            return
        }
        var writer = ListingWriter(format: self, columns: columns, headers: headers)
        writer.write(items, to: &out)
        writer.finish(to: &out)
    }
}
