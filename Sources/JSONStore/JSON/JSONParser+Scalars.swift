/// Reading the scalars of JSON (literals and numbers; strings are in
/// `JSONParser+Strings.swift`) and naming what was found where something else was
/// expected.
extension JSONParser {
    /// Reads `true`, `false` or `null`, or explains what the character at `i` is instead.
    mutating func literal() throws(JSONSyntaxError) -> JSONValue {
        let start = i
        let word: StaticString
        let value: JSONValue
        switch bytes[i] {
        case UInt8(ascii: "t"): (word, value) = ("true", .bool(true))
        case UInt8(ascii: "f"): (word, value) = ("false", .bool(false))
        case UInt8(ascii: "n"): (word, value) = ("null", .null)
        default: try notAValue()
        }
        guard matches(word) else {
            throw fail(.invalidLiteral, "invalid literal, expected '\(word)'", at: start)
        }
        i += word.utf8CodeUnitCount
        return value
    }

    /// Explains what the character at `i`, which cannot start a value, is instead.
    func notAValue() throws(JSONSyntaxError) -> Never {
        if matches("NaN") || matches("Infinity") {
            throw fail(.nonFiniteNumber, "NaN and Infinity are not valid JSON numbers", at: i)
        }
        switch bytes[i] {
        case UInt8(ascii: "'"):
            throw fail(
                .singleQuotedString, "strings must be in double quotes, not single quotes", at: i)
        case UInt8(ascii: "/"):
            throw fail(.comment, "comments are not allowed in JSON", at: i)
        default:
            throw fail(.unexpectedCharacter, "expected a value, found \(describe(at: i))", at: i)
        }
    }

    func matches(_ word: StaticString) -> Bool {
        guard word.utf8CodeUnitCount <= bytes.count - i else { return false }
        for k in 0..<word.utf8CodeUnitCount where bytes[i + k] != word.utf8Start[k] {
            return false
        }
        return true
    }

    mutating func number() throws(JSONSyntaxError) -> JSONNumber {
        let start = i
        try skipNumber()
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        return JSONNumber(uncheckedText: text)
    }

    /// Steps over the number at `i`, or explains why it is not one.
    @inline(__always)
    mutating func skipNumber() throws(JSONSyntaxError) {
        let start = i
        let length = JSONNumber.grammarLength(bytes, from: i)
        if length < 0 {
            let bad = -length - 1
            if bytes[start] == JSONByte.minus && bad == start + 1 && bad < bytes.count
                && bytes[bad] == UInt8(ascii: "I")
            {
                throw fail(
                    .nonFiniteNumber, "NaN and Infinity are not valid JSON numbers", at: start)
            }
            let afterZero =
                bad > start && bytes[bad - 1] == 0x30
                && (bad - 1 == start || bytes[bad - 2] == JSONByte.minus)
            if afterZero && bad < bytes.count && bytes[bad] >= 0x30 && bytes[bad] <= 0x39 {
                throw fail(.invalidNumber, "numbers cannot have leading zeros", at: start)
            }
            let found = bad < bytes.count ? describe(at: bad) : "end of input"
            throw fail(.invalidNumber, "invalid number: expected a digit, found \(found)", at: bad)
        }
        i += length
    }

    /// A readable name for the character at `offset`: `'x'`, `U+0007`, `byte 0xFF`.
    func describe(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte < 0x80 { return describeChar(byte) }
        var probe = self
        probe.i = offset
        if let length = try? probe.utf8Sequence() {
            let text = String(
                decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]),
                as: UTF8.self)
            let scalar = text.unicodeScalars.first!
            return
                "U+\(String(scalar.value, radix: 16, uppercase: true)) '\(Display.escaped(text))'"
        }
        return "byte \(hexByte(byte))"
    }

    func describeChar(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "U+00\(hexDigits2(byte))"
    }

    func quoted(_ s: String) -> String { "\"\(Display.escaped(s))\"" }
}

func hexByte(_ byte: UInt8) -> String { "0x" + hexDigits2(byte) }

func hexDigits2(_ byte: UInt8) -> String {
    let s = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0" + s : s
}

func hexDigits4(_ unit: UInt16) -> String {
    let s = String(unit, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - s.count) + s
}
