import JSONStore

/// The columns and cells of an item table, like `kubectl get`: the id, then the items'
/// most common fields, each fitted to the width available, truncated with `…`.
package struct Table {
    /// The column names; the first is always `id`.
    let columns: [String]
    /// Each column's field, parsed once.
    private let paths: [FieldPath]
    /// The spaces between two columns.
    static let gap = 2

    init(columns: [String]) {
        self.columns = columns
        paths = columns.map(FieldPath.init)
    }

    /// The most common top-level fields of `items` (at most `limit`), most common first,
    /// ties in the order first seen; or the requested columns.
    static func columns<C: Collection>(for items: C, requested: [String]?, limit: Int = 6)
        -> [String]
    where C.Element == Item {
        if let requested { return ["id"] + requested.filter { $0 != "id" } }
        var tally = FieldTally()
        tally.add(items)
        return tally.ranked(limit: limit)
    }

    /// The text of a value in a cell: strings as they are, scalar arrays joined by commas,
    /// anything else as compact JSON; always escaped, so safe on a terminal.
    static func cell(_ value: JSONValue?) -> String {
        let text: String
        switch value {
        case nil, .null?: text = ""
        case .string(let s)?: text = s
        case .number(let n)?: return n.text  // digits, sign, dot and exponent: all safe
        case .bool(let b)?: return b ? "true" : "false"
        case .array(let elements)?
        where elements.allSatisfy({ $0.objectValue == nil && $0.arrayValue == nil }):
            text = elements.map { cell($0) }.joined(separator: ",")
        case let other?: text = other.description
        }
        return Display.escaped(text)
    }

    /// The cells of `item` for these columns.
    func cells(_ item: Item) -> [String] {
        paths.map { $0.text == "id" ? Display.escaped(item.id) : Self.cell($0.value(in: item)) }
    }

    /// Column widths that fit `total` columns: natural widths, the widest shrunk first;
    /// columns that cannot fit at all are dropped from the right. The first column (the
    /// id, as `kubectl get`'s NAME) gives way last: it is cut only when it cannot fit alone.
    static func widths(natural: [Int], total: Int) -> [Int] {
        var widths = natural
        let minimum = 4
        func sum() -> Int { widths.reduce(0, +) + gap * max(0, widths.count - 1) }
        while sum() > total {
            guard let widest = widths.indices.dropFirst().max(by: { widths[$0] < widths[$1] }),
                widths[widest] > minimum
            else {
                if widths.count > 1 {
                    widths.removeLast()
                } else {
                    widths[0] = max(1, total)
                    break
                }
                continue
            }
            widths[widest] -= 1
        }
        return widths
    }

    /// The header line and one line per item, each fitted to `width` columns.
    func lines<C: Collection>(for items: C, width: Int) -> [String] where C.Element == Item {
        Self.lines(header: columns.map(Display.heading), rows: items.map(cells), width: width)
    }

    /// The header line and one line per row of escaped cells, fitted to `width` columns.
    static func lines(header: [String], rows: [[String]], width: Int) -> [String] {
        var natural = header.map(TextWidth.of)
        for row in rows {
            for (i, text) in row.enumerated() { natural[i] = max(natural[i], TextWidth.of(text)) }
        }
        let widths = widths(natural: natural, total: width)
        return ([header] + rows).map { line($0, widths) }
    }

    /// One line of cells in these widths, with no trailing spaces (empty last cells leave
    /// none behind).
    static func line(_ cells: [String], _ widths: [Int]) -> String {
        var parts: [String] = []
        for (i, width) in widths.enumerated() {
            parts.append(
                i == widths.count - 1
                    ? TextWidth.truncate(cells[i], to: width) : TextWidth.fit(cells[i], to: width))
        }
        var line = parts.joined(separator: String(repeating: " ", count: gap))
        while line.last == " " { line.removeLast() }
        return line
    }
}
