extension JSONWriter {
    /// `rewrite` of an object's valid text on one line, for the common item: one pass that
    /// copies every byte but the whitespace between tokens. It holds when no string has an
    /// escape (so every quote opens or closes a string, and nothing needs escaping again:
    /// valid text has no raw control character in a string) and, with `strict`, no
    /// character `strict` escapes is there (U+007F, U+0080 to U+009F, the Arabic letter
    /// mark, the line and paragraph separators and the bidi controls: looked at only where
    /// a string has a byte 7F, C2, D8 or E2, so a dash or a curly quote is copied).
    /// Returns `false`, with `out` as it was, when the text is not such an object;
    /// `rewrite` then writes it.
    static func appendCompactCopy(
        _ bytes: UnsafeBufferPointer<UInt8>, id: String?, into out: inout [UInt8], strict: Bool
    ) -> Bool {
        let mark = out.count
        var i = MemberScan.skipWhitespace(bytes, MemberScan.start(of: bytes))
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return false }
        if let id {
            out.append(UInt8(ascii: "{"))
            writeString("id", into: &out, strict: strict)
            out.append(UInt8(ascii: ":"))
            writeString(id, into: &out, strict: strict)
            i = MemberScan.skipWhitespace(bytes, i + 1)
            // A member follows: its comma now, the rest copied from the key on.
            if i < bytes.count, bytes[i] != UInt8(ascii: "}") { out.append(UInt8(ascii: ",")) }
        }
        let base = out.count
        out.append(contentsOf: repeatElement(0, count: bytes.count - i))
        let written = out.withUnsafeMutableBufferPointer { out -> Int? in
            var o = base
            var inString = false
            while i < bytes.count {
                let byte = bytes[i]
                i += 1
                if inString {
                    if byte == UInt8(ascii: "\"") {
                        inString = false
                    } else if byte == UInt8(ascii: "\\") {
                        return nil
                    } else if strict, byte >= 0x7F,
                        byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2,
                        escape(in: bytes, at: i - 1, strict: true).width > 0
                    {
                        return nil
                    }
                } else {
                    switch byte {
                    case 0x20, 0x09, 0x0A, 0x0D: continue
                    case UInt8(ascii: "\""): inString = true
                    default: break
                    }
                }
                out[o] = byte
                o += 1
            }
            return o
        }
        guard let written else {
            out.removeLast(out.count - mark)
            return false
        }
        out.removeLast(out.count - written)
        return true
    }
}
