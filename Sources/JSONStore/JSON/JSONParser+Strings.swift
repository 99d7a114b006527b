/// Reading JSON's strings: checked byte by byte, made into a `String`, or stepped over
/// and located for a tape.
extension JSONParser {
    /// Reads a string starting at its opening quote.
    mutating func string() throws(JSONSyntaxError) -> String {
        let open = i
        i += 1
        let start = i
        // Fast path: no escapes, so the bytes between the quotes are the string.
        if try skipPlainText() {
            let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            i += 1
            return s
        }
        return try escapedString(open: open, start: start)
    }

    /// Steps over the string whose opening quote is at `i`, checking it as `string()`
    /// does: its text lies at `result.text` of the input, and `result.escaped` says
    /// whether it has escapes to decode. A string without escapes is not made; one with
    /// them is, to check them, and dropped.
    mutating func skipString() throws(JSONSyntaxError) -> (text: Range<Int>, escaped: Bool) {
        let open = i
        i += 1
        let start = i
        if try skipPlainText() {
            i += 1
            return (start..<i - 1, false)
        }
        _ = try escapedString(open: open, start: start)
        return (start..<i - 1, true)
    }

    /// Steps over a string's text up to its closing quote (true) or its first backslash
    /// (false), checking each character.
    @inline(__always)
    private mutating func skipPlainText() throws(JSONSyntaxError) -> Bool {
        while i < bytes.count {
            let byte = bytes[i]
            if byte == JSONByte.quote { return true }
            if byte == JSONByte.backslash { return false }
            if byte < 0x20 { throw controlCharacter(byte) }
            if byte < 0x80 { i += 1 } else { i += try utf8Sequence() }
        }
        return false
    }

    /// The rest of the string opened at `open` whose text began at `start`, from its
    /// first escape (at `i`) on.
    private mutating func escapedString(open: Int, start: Int) throws(JSONSyntaxError) -> String {
        var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<i]))
        while i < bytes.count {
            let byte = bytes[i]
            if byte == JSONByte.quote {
                i += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == JSONByte.backslash {
                try escape(into: &scratch)
            } else if byte < 0x20 {
                throw controlCharacter(byte)
            } else if byte < 0x80 {
                scratch.append(byte)
                i += 1
            } else {
                let length = try utf8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<i + length]))
                i += length
            }
        }
        throw fail(.unexpectedEndOfInput, "unterminated string (no closing '\"')", at: open)
    }

    func controlCharacter(_ byte: UInt8) -> JSONSyntaxError {
        let name: String
        switch byte {
        case 0x0A: name = "a line break (write it as \\n)"
        case 0x0D: name = "a carriage return (write it as \\r)"
        case 0x09: name = "a tab (write it as \\t)"
        default:
            name =
                "the control character U+00\(hexDigits2(byte)) (write it as \\u00\(hexDigits2(byte)))"
        }
        return fail(.unescapedControlCharacter, "\(name) inside a string must be escaped", at: i)
    }

    /// Reads the escape at `i` (a backslash) and appends its UTF-8.
    mutating func escape(into scratch: inout [UInt8]) throws(JSONSyntaxError) {
        let start = i
        guard i + 1 < bytes.count else { throw endOfInput(expecting: "an escape character") }
        let c = bytes[i + 1]
        i += 2
        switch c {
        case JSONByte.quote, JSONByte.backslash, UInt8(ascii: "/"): scratch.append(c)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexUnit(escapeStart: start)
            var scalarValue = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                let lowStart = i
                guard i + 1 < bytes.count, bytes[i] == JSONByte.backslash,
                    bytes[i + 1] == UInt8(ascii: "u")
                else {
                    throw fail(
                        .loneSurrogate,
                        "lone surrogate \\u\(hexDigits4(unit)): a high surrogate must be followed by a low one",
                        at: start)
                }
                i += 2
                let low = try hexUnit(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw fail(
                        .loneSurrogate,
                        "lone surrogate \\u\(hexDigits4(unit)): followed by \\u\(hexDigits4(low)), not a low surrogate",
                        at: start)
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw fail(
                    .loneSurrogate,
                    "lone surrogate \\u\(hexDigits4(unit)): a low surrogate without a high one before it",
                    at: start)
            }
            scratch.append(contentsOf: Array(String(Unicode.Scalar(scalarValue)!).utf8))
        default:
            let shown =
                c >= 0x20 && c < 0x7F
                ? "\\" + String(Unicode.Scalar(c)) : "\\ followed by \(describe(at: i - 1))"
            throw fail(.invalidEscape, "invalid escape \(shown) in a string", at: start)
        }
    }

    /// Reads the four hex digits after `\u`.
    mutating func hexUnit(escapeStart: Int) throws(JSONSyntaxError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard i < bytes.count else { throw endOfInput(expecting: "four hex digits after \\u") }
            guard let digit = bytes[i].hexDigitValue else {
                throw fail(
                    .invalidEscape, "\\u must be followed by four hex digits", at: escapeStart)
            }
            unit = unit << 4 | UInt16(digit)
            i += 1
        }
        return unit
    }

    /// Checks the UTF-8 sequence at `i` and returns its length.
    func utf8Sequence() throws(JSONSyntaxError) -> Int {
        let lead = bytes[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F  // no encoded surrogates
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default:
            throw fail(
                .invalidUTF8, "invalid UTF-8: byte \(hexByte(lead)) cannot start a character", at: i
            )
        }
        for k in 1..<length {
            let j = i + k
            guard j < bytes.count else {
                throw fail(.invalidUTF8, "invalid UTF-8: the input ends inside a character", at: i)
            }
            let byte = bytes[j]
            let (lo, hi) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= lo && byte <= hi else {
                throw fail(
                    .invalidUTF8, "invalid UTF-8: byte \(hexByte(byte)) after \(hexByte(lead))",
                    at: i)
            }
        }
        return length
    }
}
