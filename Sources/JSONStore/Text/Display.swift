/// Makes text from files safe to show on a terminal.
///
/// File names and file contents are untrusted: an item title holding `ESC ] 0 ;` could
/// retitle the terminal, `ESC [ 2 J` clear it, U+202E reverse what follows. Every such
/// character is shown visibly instead: `\n`, `^[`, `^G`, `\u{9B}`, `\u{202E}`.
package enum Display {
    /// Whether `scalar` must not reach a terminal raw.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1 (CSI is U+009B)
        case 0x200E, 0x200F, 0x061C: true  // direction marks
        case 0x202A...0x202E, 0x2066...0x2069: true  // bidi embeddings, overrides, isolates
        case 0x2028, 0x2029: true  // line and paragraph separators
        default: false
        }
    }

    /// `text` with every unsafe character replaced by a visible escape.
    ///
    /// - Complexity: O(n); returns `text` itself when nothing needs escaping.
    package static func escaped(_ text: String) -> String {
        // Printable ASCII, the common case, is safe: checked a byte at a time.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isUnsafe(scalar) else {
                out.append(scalar)
                continue
            }
            let visible: String
            switch scalar.value {
            case 0x0A: visible = "\\n"
            case 0x0D: visible = "\\r"
            case 0x09: visible = "\\t"
            case 0x00...0x1F: visible = "^" + String(Unicode.Scalar(UInt8(scalar.value) + 0x40))
            case 0x7F: visible = "^?"
            default: visible = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            out.append(contentsOf: visible.unicodeScalars)
        }
        return String(out)
    }

    /// `text` upper-cased for a column heading, with every unsafe character replaced by
    /// its visible escape first: only the printable text is upper-cased, so `ESC [ 31 m`
    /// shows as `^[[31M`, never becomes the control sequence `ESC [ 31 M`.
    package static func heading(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text.uppercased() }
        var out = ""
        var run = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                out += run.uppercased() + escaped(String(scalar))
                run = ""
            } else {
                run.unicodeScalars.append(scalar)
            }
        }
        return out + run.uppercased()
    }

    /// The bytes of a name that is not valid UTF-8, as text: each valid sequence as its
    /// character (escaped like any text, a backslash doubled), each byte that is not part
    /// of one as `\xNN`.
    ///
    /// For example, the bytes `80 61 62 63` show as `\x80abc`.
    package static func bytes<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var out = ""
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            // One scalar from the front; a byte that starts none is shown as `\xNN`.
            var iterator = rest.makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                // A backslash of the name is doubled, so `\x80` is always a byte.
                out += scalar == "\\" ? "\\\\" : escaped(String(scalar))
                rest = rest.dropFirst(UTF8.width(scalar))
            } else {
                let byte = rest.first!
                out += (byte < 0x10 ? "\\x0" : "\\x") + String(byte, radix: 16)
                rest = rest.dropFirst()
            }
        }
        return out
    }
}
