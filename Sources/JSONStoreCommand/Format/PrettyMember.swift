import JSONStore

/// One member of an item as `JSONWriter.pretty` writes it inside the item's braces:
/// `  "key": value`, its value's later lines indented alike, a comma after all but the last.
/// The list view's pane lights an item's JSON a member at a time with it, and the merge
/// driver writes conflicting members between git's markers with it.
enum PrettyMember {
    /// The member's lines; for a terminal, with line breaks and controls escaped.
    static func lines(_ key: String, _ value: JSONValue, last: Bool, forTerminal: Bool)
        -> [String]
    {
        let name = String(decoding: JSONWriter.compact(.string(key)), as: UTF8.self)
        let text = String(
            decoding: JSONWriter.pretty(value, escapingUnicodeLineBreaks: forTerminal),
            as: UTF8.self)
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" { parts.removeLast() }
        if !last { parts[parts.count - 1] += "," }
        return parts.enumerated().map { k, part in
            let line = k == 0 ? "  \(name): \(part)" : "  \(part)"
            return forTerminal ? Display.escaped(line) : line
        }
    }
}
