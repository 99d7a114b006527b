import JSONStore

/// Writes a listing in TSV, JSON, NDJSON or ids a piece at a time, as the items are read,
/// so a listing of a million items holds one piece of them, never all.
struct ListingWriter {
    let format: ListFormat
    private let table: Table
    private let headers: Bool
    /// From how many items a piece of NDJSON is written on every core, in runs of
    /// `runLength`.
    static let parallelAbove = 2_048
    static let runLength = 1_024
    /// How many items were written so far.
    private var count = 0
    private var started = false

    /// - Precondition: `format` is not `.table`, which needs every row to fit its columns.
    init(format: ListFormat, columns: [String], headers: Bool) {
        precondition(format != .table, "a table is fitted to all its rows at once")
        self.format = format
        table = Table(columns: columns)
        self.headers = headers
    }

    /// Writes `items`, which follow those written before.
    mutating func write<C: Collection>(_ items: C, to out: inout OutputBuffer)
    where C.Element == Item {
        if !started {
            started = true
            if format == .tsv && headers {
                out.line(table.columns.map(Display.escaped).joined(separator: "\t"))
            }
        }
        switch format {
        case .tsv:
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
            for item in items {
                let first = count == 0
                out.append { bytes in
                    bytes.append(contentsOf: (first ? "[\n  " : ",\n  ").utf8)
                    JSONWriter.appendItem(
                        item, to: &bytes, pretty: true, indent: 1, escapingUnicodeLineBreaks: true)
                }
                count += 1
            }
        case .ndjson where items.count >= Self.parallelAbove:
            // A chunk of the listing (4,096 items), written on every core in runs.
            let items = Array(items)
            NDJSON.writeInRuns(count: items.count, runLength: Self.runLength, to: &out) {
                run, bytes in
                for item in items[run] {
                    JSONWriter.appendItem(item, to: &bytes, escapingUnicodeLineBreaks: true)
                    bytes.append(0x0A)
                }
            }
        case .ndjson:
            for item in items {
                out.append { bytes in
                    JSONWriter.appendItem(item, to: &bytes, escapingUnicodeLineBreaks: true)
                    bytes.append(0x0A)
                }
            }
        case .ids:
            for item in items { out.line(Display.escaped(item.id)) }
        case .table:
            preconditionFailure("a table is written by Table.lines")
        }
    }

    /// Ends the listing (a JSON array's bracket).
    mutating func finish(to out: inout OutputBuffer) {
        if !started { write([Item](), to: &out) }
        if format == .json { out.line(count == 0 ? "[]" : "\n]") }
    }
}
