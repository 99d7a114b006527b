/// How many terminal columns text takes, and cutting text to a width.
///
/// Wide East Asian characters and most emoji take two columns, combining marks none.
/// Text passed here has been through `Display.escaped`, so it holds no control characters.
enum TextWidth {
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF,
            0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    /// `text` cut to at most `width` columns, ending in `…` when cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        // No character is wider than its UTF-8 bytes: text of `width` bytes fits.
        if text.utf8.count <= width || of(text) <= width { return text }
        var out = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let w = of(scalar)
            if used + w > width - 1 { break }
            out.append(scalar)
            used += w
        }
        return String(out) + "…"
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    static func fit(_ text: String, to width: Int) -> String {
        let cut = truncate(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - of(cut)))
    }

    /// `text` in lines of at most `width` columns, broken after the last space that fits,
    /// or anywhere in a word longer than a line (a path): nothing is cut.
    static func wrap(_ text: String, to width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        var used = 0
        /// Where the last space of `line` ends, and the width before it.
        var lastSpace: (index: String.UnicodeScalarView.Index, used: Int)?
        for scalar in text.unicodeScalars {
            let w = of(scalar)
            if used + w > width, !line.isEmpty {
                if let space = lastSpace, scalar != " " {
                    lines.append(String(line[..<space.index]))
                    line = String.UnicodeScalarView(line[space.index...])
                    used -= space.used
                } else {
                    lines.append(String(line))
                    line = String.UnicodeScalarView()
                    used = 0
                }
                lastSpace = nil
                if scalar == " " { continue }
            }
            line.append(scalar)
            used += w
            if scalar == " " { lastSpace = (line.endIndex, used) }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(String(line)) }
        return lines
    }
}
