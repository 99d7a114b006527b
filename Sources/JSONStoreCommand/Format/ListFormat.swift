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

    /// Writes the listing of `items` to `out`, each line with its newline.
    ///
    /// - Parameters:
    ///   - columns: the columns, `id` first (tables and TSV).
    ///   - headers: whether tables and TSV start with a line of column names.
    ///   - width: the width a table is fitted to.
    func write<C: Collection>(
        _ items: C, columns: [String], headers: Bool, width: Int, to out: inout OutputBuffer
    ) where C.Element == Item {
        switch self {
        case .table:
            let lines = Table(columns: columns).lines(for: items, width: width)
            for line in lines.dropFirst(headers ? 0 : 1) { out.line(line) }
        case .tsv:
            let table = Table(columns: columns)
            if headers { out.line(columns.map(Display.escaped).joined(separator: "\t")) }
            for item in items {
                let cells = table.cells(item)
                out.append { bytes in
                    for (k, var cell) in cells.enumerated() {
                        if k > 0 { bytes.append(0x09) }
                        cell.withUTF8 { bytes.append(contentsOf: $0) }
                    }
                    bytes.append(0x0A)
                }
            }
        case .json:
            // The pretty array `JSONWriter.pretty` would make of the items' objects.
            guard !items.isEmpty else { return out.line("[]") }
            for (n, item) in items.enumerated() {
                out.append { bytes in
                    bytes.append(contentsOf: (n == 0 ? "[\n  " : ",\n  ").utf8)
                    JSONWriter.appendItem(
                        item, to: &bytes, pretty: true, indent: 1, escapingUnicodeLineBreaks: true)
                }
            }
            out.line("\n]")
        case .ndjson:
            for item in items {
                out.append { bytes in
                    JSONWriter.appendItem(item, to: &bytes, escapingUnicodeLineBreaks: true)
                    bytes.append(0x0A)
                }
            }
        case .ids:
            for item in items { out.line(Display.escaped(item.id)) }
        }
    }
}
