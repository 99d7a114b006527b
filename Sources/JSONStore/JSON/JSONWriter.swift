/// Writes JSON text: pretty (2-space indent, trailing newline) for files, compact for
/// one-line output.
///
/// Strings are escaped minimally (quote, backslash, control characters), so non-ASCII
/// text stays readable in the file. Numbers are written with the text they were read with.
public enum JSONWriter {
    /// The value as pretty JSON: 2-space indent, `": "` after keys, a trailing newline.
    ///
    /// For example, `["a": 1, "b": [true]]` becomes:
    ///
    /// ```
    /// {
    ///   "a": 1,
    ///   "b": [
    ///     true
    ///   ]
    /// }
    /// ```
    ///
    /// - Parameter escapingUnicodeLineBreaks: also escape U+2028, U+2029 and U+007F to
    ///   U+009F, for output that goes to a terminal.
    public static func pretty(_ value: JSONValue, escapingUnicodeLineBreaks: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out, indent: 0, pretty: true, strict: escapingUnicodeLineBreaks)
        out.append(0x0A)
        return out
    }

    /// The value as JSON on one line, no trailing newline.
    ///
    /// - Parameter escapingUnicodeLineBreaks: also escape U+2028, U+2029 and U+007F to
    ///   U+009F, for output that line-oriented tools and terminals read (NDJSON).
    public static func compact(_ value: JSONValue, escapingUnicodeLineBreaks: Bool = false)
        -> [UInt8]
    {
        var out: [UInt8] = []
        write(value, into: &out, indent: 0, pretty: false, strict: escapingUnicodeLineBreaks)
        return out
    }

    /// Appends `value` as compact JSON to `out`: for output written in pieces, such as a
    /// stream of a million items that should not be built as one string first.
    public static func appendCompact(
        _ value: JSONValue, to out: inout [UInt8], escapingUnicodeLineBreaks: Bool = false
    ) {
        write(value, into: &out, indent: 0, pretty: false, strict: escapingUnicodeLineBreaks)
    }

    private static func write(
        _ value: JSONValue, into out: inout [UInt8], indent: Int, pretty: Bool,
        strict: Bool = false
    ) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.text.utf8)
        case .string(let s): writeString(s, into: &out, strict: strict)
        case .array(let elements):
            guard !elements.isEmpty else { return out.append(contentsOf: "[]".utf8) }
            out.append(UInt8(ascii: "["))
            for (k, element) in elements.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent + 1, pretty)
                write(element, into: &out, indent: indent + 1, pretty: pretty, strict: strict)
            }
            newline(&out, indent, pretty)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else { return out.append(contentsOf: "{}".utf8) }
            out.append(UInt8(ascii: "{"))
            for (k, member) in object.members.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent + 1, pretty)
                writeString(member.key, into: &out, strict: strict)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                write(member.value, into: &out, indent: indent + 1, pretty: pretty, strict: strict)
            }
            newline(&out, indent, pretty)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int, _ pretty: Bool) {
        guard pretty else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ s: String, into out: inout [UInt8], strict: Bool) {
        out.append(UInt8(ascii: "\""))
        if !strict {
            for byte in s.utf8 {
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
                case 0x0A: out.append(contentsOf: "\\n".utf8)
                case 0x0D: out.append(contentsOf: "\\r".utf8)
                case 0x09: out.append(contentsOf: "\\t".utf8)
                case 0x08: out.append(contentsOf: "\\b".utf8)
                case 0x0C: out.append(contentsOf: "\\f".utf8)
                case 0x00..<0x20: unicodeEscape(UInt32(byte), into: &out)
                default: out.append(byte)
                }
            }
        } else {
            for scalar in s.unicodeScalars {
                switch scalar.value {
                case 0x22: out.append(contentsOf: "\\\"".utf8)
                case 0x5C: out.append(contentsOf: "\\\\".utf8)
                case 0x0A: out.append(contentsOf: "\\n".utf8)
                case 0x0D: out.append(contentsOf: "\\r".utf8)
                case 0x09: out.append(contentsOf: "\\t".utf8)
                case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                    unicodeEscape(scalar.value, into: &out)
                default: out.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func unicodeEscape(_ value: UInt32, into out: inout [UInt8]) {
        out.append(contentsOf: "\\u".utf8)
        for shift in stride(from: 12, through: 0, by: -4) {
            out.append(hexDigits[Int((value >> UInt32(shift)) & 0xF)])
        }
    }
}
