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

    /// The lines that print `items`, each without its newline (JSON's pretty array is
    /// several lines, returned as one string with newlines inside).
    ///
    /// - Parameters:
    ///   - columns: the columns, `id` first (tables and TSV).
    ///   - headers: whether tables and TSV start with a line of column names.
    ///   - width: the width a table is fitted to.
    func lines<C: Collection>(for items: C, columns: [String], headers: Bool, width: Int) -> [String]
    where C.Element == Item {
        switch self {
        case .table:
            let lines = Table(columns: columns).lines(for: items, width: width)
            return headers ? lines : Array(lines.dropFirst())
        case .tsv:
            let table = Table(columns: columns)
            let rows = items.map { table.cells($0).joined(separator: "\t") }
            return headers ? [columns.map(Display.escaped).joined(separator: "\t")] + rows : rows
        case .json:
            var text = Output.prettyJSON(NDJSON.items(items))
            if text.hasSuffix("\n") { text.removeLast() }
            return [text]
        case .ndjson:
            return items.map { item in
                var line = NDJSON.line(item.object)
                line.removeLast()
                return line
            }
        case .ids:
            return items.map { Display.escaped($0.id) }
        }
    }
}
