import JSONStore

/// Writes `list --count-by`'s counts: a table, TSV (`FIELD` and `count`), JSON
/// (`[{"value": V, "count": N}, …]`, no `"value"` for the items lacking the field), NDJSON
/// (one such object a line), and the stream's `counts` event.
enum CountsWriter {
    static func write(
        _ counts: [CountBy.Count], field: String, format: ListFormat, headers: Bool, width: Int,
        to out: inout OutputBuffer
    ) {
        switch format {
        case .table:
            for line in table(counts, field: field, width: width).dropFirst(headers ? 0 : 1) {
                out.line(line)
            }
        case .tsv:
            if headers { out.line(Display.escaped(field) + "\tcount") }
            for count in counts { out.line(cell(count.value) + "\t" + String(count.count)) }
        case .json:
            let array = JSONValue.array(counts.map(object))
            out.append {
                $0.append(contentsOf: JSONWriter.pretty(array, escapingUnicodeLineBreaks: true))
            }
        case .ndjson:
            for count in counts {
                out.line(String(NDJSON.line(object(count).objectValue!).dropLast()))
            }
        case .ids:
            preconditionFailure("refused when the options are read")
        }
    }

    /// The counts as a table of `FIELD` and `COUNT` fitted to `width`: the header line, then
    /// a line per value (the list view's `f` draws the same).
    static func table(_ counts: [CountBy.Count], field: String, width: Int) -> [String] {
        Table.lines(
            header: [Display.heading(field), "COUNT"],
            rows: counts.map { [cell($0.value), String($0.count)] }, width: width)
    }

    /// `{"event":"counts","revision":…,"counts":[…]}`, with its newline.
    static func event(_ counts: [CountBy.Count], revision: StoreRevision) -> String {
        NDJSON.line([
            "event": "counts", "revision": .string(revision.token),
            "counts": .array(counts.map(object)),
        ])
    }

    /// `{"value": V, "count": N}`; no `"value"` for the items lacking the field.
    static func object(_ count: CountBy.Count) -> JSONValue {
        var object: JSONObject = [:]
        if let value = count.value { object["value"] = value }
        object["count"] = .number(JSONNumber(count.count))
        return .object(object)
    }

    /// A value in a cell: as a table shows it, but `null` as `null` (and no value, for the
    /// items lacking the field, as an empty cell).
    static func cell(_ value: JSONValue?) -> String {
        value == .null ? "null" : Table.cell(value)
    }
}
