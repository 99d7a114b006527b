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
    /// - Parameter escapingUnicodeLineBreaks: also escape U+2028, U+2029, U+007F to
    ///   U+009F and the bidi controls, for output that goes to a terminal.
    public static func pretty(_ value: JSONValue, escapingUnicodeLineBreaks: Bool = false)
        -> [UInt8]
    {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out, indent: 0, pretty: true, strict: escapingUnicodeLineBreaks)
        out.append(0x0A)
        return out
    }

    /// The value as JSON on one line, no trailing newline.
    ///
    /// - Parameter escapingUnicodeLineBreaks: also escape U+2028, U+2029, U+007F to
    ///   U+009F and the bidi controls, for output that line-oriented tools and terminals
    ///   read (NDJSON).
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

    /// Appends `item`'s object to `out`, its `"id"` first when the file has none, as
    /// `item.object` would be written but without making that object: straight from the
    /// item's bytes (`rewrite`).
    ///
    /// - Parameters:
    ///   - pretty: pretty-printed, nested at `indent` levels, without a trailing newline;
    ///     else compact.
    package static func appendItem(
        _ item: Item, to out: inout [UInt8], pretty: Bool = false, indent: Int = 0,
        escapingUnicodeLineBreaks: Bool = false
    ) {
        item.bytes.withUnsafeBytes { raw in
            appendItem(
                id: item.id, text: raw, to: &out, pretty: pretty, indent: indent,
                escapingUnicodeLineBreaks: escapingUnicodeLineBreaks)
        }
    }

    /// `appendItem` for the item `id` whose file's bytes are `raw`, borrowed where they are.
    package static func appendItem(
        id: String, text raw: UnsafeRawBufferPointer, to out: inout [UInt8], pretty: Bool = false,
        indent: Int = 0, escapingUnicodeLineBreaks: Bool = false
    ) {
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        // Most items have no member "id": told by two searches of the C library (no escape
        // that could spell it and no `"id"`) before a scan of the members. An item with an
        // escape is not tried on the one-pass copy, which gives it up.
        let escaped = ByteSearch.first(0x5C, in: bytes) != nil
        let mayHaveID = escaped || ByteSearch.contains(#""id""#, in: bytes)
        let hasID = mayHaveID && MemberScan.valueRange(of: "id", in: bytes) != nil
        let id = hasID ? nil : id
        if !pretty, !escaped,
            appendCompactCopy(bytes, id: id, into: &out, strict: escapingUnicodeLineBreaks)
        {
            return
        }
        rewrite(
            bytes, id: id, into: &out, indent: indent, pretty: pretty,
            strict: escapingUnicodeLineBreaks)
    }

    private static func write(
        _ value: JSONValue, into out: inout [UInt8], indent: Int, pretty: Bool,
        strict: Bool = false
    ) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): appendUTF8(n.text, to: &out)
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
            writeObject(object, id: nil, into: &out, indent: indent, pretty: pretty, strict: strict)
        }
    }

    /// Writes `object`, with a member `"id": id` first when `id` is given.
    private static func writeObject(
        _ object: JSONObject, id: String?, into out: inout [UInt8], indent: Int, pretty: Bool,
        strict: Bool
    ) {
        guard !object.isEmpty || id != nil else { return out.append(contentsOf: "{}".utf8) }
        out.append(UInt8(ascii: "{"))
        var first = true
        func key(_ key: String) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            newline(&out, indent + 1, pretty)
            writeString(key, into: &out, strict: strict)
            out.append(UInt8(ascii: ":"))
            if pretty { out.append(UInt8(ascii: " ")) }
        }
        if let id {
            key("id")
            writeString(id, into: &out, strict: strict)
        }
        for member in object.members {
            key(member.key)
            write(member.value, into: &out, indent: indent + 1, pretty: pretty, strict: strict)
        }
        newline(&out, indent, pretty)
        out.append(UInt8(ascii: "}"))
    }

    static func newline(_ out: inout [UInt8], _ indent: Int, _ pretty: Bool) {
        guard pretty else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static func appendUTF8(_ s: String, to out: inout [UInt8]) {
        UTF8Key.withBytes(s) { out.append(contentsOf: $0) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes `s` quoted, escaping the quote, the backslash and control characters (with
    /// `strict`, also U+007F to U+009F, U+2028, U+2029 and the bidi controls, everything
    /// `Display.isUnsafe` names). Runs of bytes that need no
    /// escape are copied whole.
    static func writeString(_ s: String, into out: inout [UInt8], strict: Bool) {
        UTF8Key.withBytes(s) { writeString(bytes: $0, into: &out, strict: strict) }
    }

    /// `writeString` of the string whose UTF-8 is `bytes`.
    static func writeString(
        bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], strict: Bool
    ) {
        out.append(UInt8(ascii: "\""))
        var start = 0
        var i = 0
        while i < bytes.count {
            let (width, scalar) = escape(in: bytes, at: i, strict: strict)
            guard width > 0 else {
                i += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
            writeEscape(scalar, into: &out, strict: strict)
            i += width
            start = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        out.append(UInt8(ascii: "\""))
    }

    /// The length in bytes of the character at `i` and its scalar, when it must be escaped;
    /// a width of 0 when the byte is copied as it is.
    @inline(__always)
    static func escape(in bytes: UnsafeBufferPointer<UInt8>, at i: Int, strict: Bool)
        -> (width: Int, scalar: UInt32)
    {
        let byte = bytes[i]
        if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            return (1, UInt32(byte))
        }
        guard strict, byte >= 0x7F else { return (0, 0) }
        switch byte {
        case 0x7F: return (1, 0x7F)
        case 0xC2 where i + 1 < bytes.count && bytes[i + 1] < 0xA0:
            return (2, UInt32(bytes[i + 1]))  // U+0080 to U+009F: C2 80 to C2 9F
        case 0xD8 where i + 1 < bytes.count && bytes[i + 1] == 0x9C:
            return (2, 0x061C)  // the Arabic letter mark: D8 9C
        case 0xE2 where i + 2 < bytes.count && (bytes[i + 1] == 0x80 || bytes[i + 1] == 0x81):
            // U+2000 to U+207F: E2 80/81 xx. The direction marks, U+2028, U+2029 and the
            // bidi embeddings, overrides and isolates are escaped.
            let scalar = 0x2000 | UInt32(bytes[i + 1] & 0x01) << 6 | UInt32(bytes[i + 2] & 0x3F)
            switch scalar {
            case 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return (3, scalar)
            default: return (0, 0)
            }
        default: return (0, 0)
        }
    }

    private static func writeEscape(_ scalar: UInt32, into out: inout [UInt8], strict: Bool) {
        switch scalar {
        case 0x22: out.append(contentsOf: "\\\"".utf8)
        case 0x5C: out.append(contentsOf: "\\\\".utf8)
        case 0x0A: out.append(contentsOf: "\\n".utf8)
        case 0x0D: out.append(contentsOf: "\\r".utf8)
        case 0x09: out.append(contentsOf: "\\t".utf8)
        case 0x08 where !strict: out.append(contentsOf: "\\b".utf8)
        case 0x0C where !strict: out.append(contentsOf: "\\f".utf8)
        default: unicodeEscape(scalar, into: &out)
        }
    }

    private static func unicodeEscape(_ value: UInt32, into out: inout [UInt8]) {
        out.append(contentsOf: "\\u".utf8)
        for shift in stride(from: 12, through: 0, by: -4) {
            out.append(hexDigits[Int((value >> UInt32(shift)) & 0xF)])
        }
    }
}
