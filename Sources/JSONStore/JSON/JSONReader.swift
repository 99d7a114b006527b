/// A strict RFC 8259 reader.
///
/// It is iterative, so nesting is bounded by `maxDepth` rather than by the thread's stack,
/// and every error carries the line, column and a reason a person can act on. A leading
/// UTF-8 byte order mark is skipped, as RFC 8259 §8.1 allows; everything else outside the
/// grammar (comments, trailing commas, NaN, single quotes, invalid UTF-8, lone surrogates,
/// duplicate keys) is an error.
public struct JSONReader: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    public var maxDepth: Int
    /// The largest input accepted, in bytes.
    public var maxSize: Int

    /// The default limits: 512 levels, 16 MiB.
    public init(maxDepth: Int = 512, maxSize: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxSize = maxSize
    }

    /// Reads one JSON value from `bytes`.
    ///
    /// - Complexity: O(n) in the input's length.
    /// - Throws: `JSONSyntaxError` naming the line, column and reason.
    public func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        if bytes.count > maxSize {
            throw JSONSyntaxError(
                .tooLarge, "input is \(bytes.count) bytes, larger than the limit of \(maxSize)",
                at: 0, in: bytes)
        }
        var parser = Parser(bytes: bytes, maxDepth: maxDepth)
        return try parser.document()
    }

    /// Reads one JSON value from `bytes`.
    public func read(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) -> JSONValue in try read(buffer) }
        }
        return try result.get()
    }

    /// Reads one JSON value from `text`.
    public func read(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try read(Array(text.utf8))
    }
}

extension JSONValue {
    /// Reads a JSON value from `text` with the default limits.
    ///
    /// - Throws: `JSONSyntaxError` naming the line, column and reason.
    public init(parsing text: String) throws(JSONSyntaxError) {
        self = try JSONReader().read(text)
    }
}

private enum Byte {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-")
}

/// One open array or object while reading.
///
/// Its elements or members so far sit at the end of the parser's shared `elements` or
/// `members` stack, from `start` on: a container is a range of a stack that is appended
/// to in place, never a value that is copied and rebuilt, so reading stays linear in the
/// length of every array and object.
private struct OpenContainer {
    /// Whether this is an object (members) rather than an array (elements).
    let isObject: Bool
    /// Where this container's elements or members begin in their stack.
    let start: Int
    /// Objects: the key whose value is being read, and where that key starts.
    var key = ""
    var keyOffset = 0
    /// Objects with many members: their keys, by bytes, for the duplicate check.
    var seen: Set<UTF8Key>?
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var i = 0
    /// The open containers, innermost last.
    var open: [OpenContainer] = []
    /// The elements read so far of every open array, outermost first.
    var elements: [JSONValue] = []
    /// The members read so far of every open object, outermost first.
    var members: [JSONObject.Member] = []

    /// Objects at least this long check duplicate keys with a set instead of a scan.
    static let hashedKeysAbove = 16

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func fail(_ kind: JSONSyntaxError.Kind, _ reason: String, at offset: Int)
        -> JSONSyntaxError
    {
        JSONSyntaxError(kind, reason, at: offset, in: bytes)
    }

    mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        skipWhitespace()
        if i == bytes.count {
            throw fail(.empty, "no JSON value: the input is empty", at: i)
        }
        nextValue: while true {
            skipWhitespace()
            guard i < bytes.count else { throw endOfInput(expecting: "a value") }
            var value: JSONValue
            switch bytes[i] {
            case Byte.openBrace:
                try checkDepth(open.count)
                i += 1
                skipWhitespace()
                if i < bytes.count && bytes[i] == Byte.closeBrace {
                    i += 1
                    value = .object(JSONObject())
                } else {
                    let (key, keyOffset) = try objectKey()
                    open.append(
                        OpenContainer(
                            isObject: true, start: members.count, key: key, keyOffset: keyOffset))
                    continue nextValue
                }
            case Byte.openBracket:
                try checkDepth(open.count)
                i += 1
                skipWhitespace()
                if i < bytes.count && bytes[i] == Byte.closeBracket {
                    i += 1
                    value = .array([])
                } else {
                    open.append(OpenContainer(isObject: false, start: elements.count))
                    continue nextValue
                }
            case Byte.quote:
                value = .string(try string())
            case Byte.minus, 0x30...0x39:
                value = .number(try number())
            default:
                value = try literal()
            }

            // Attach the finished value to its container, closing containers as they end.
            while true {
                guard let top = open.indices.last else {
                    skipWhitespace()
                    if i < bytes.count {
                        throw fail(
                            .trailingData,
                            "unexpected \(describe(at: i)) after the JSON value", at: i)
                    }
                    return value
                }
                if open[top].isObject {
                    try addMember(value, to: top)
                    if try nextMember(of: top) { continue nextValue }
                    let start = open.removeLast().start
                    value = .object(JSONObject(uniqueMembers: Array(members[start...])))
                    members.removeSubrange(start...)
                } else {
                    elements.append(value)
                    if try nextElement() { continue nextValue }
                    let start = open.removeLast().start
                    value = .array(Array(elements[start...]))
                    elements.removeSubrange(start...)
                }
            }
        }
    }

    /// Appends the member whose value was just read to the object `open[top]`, refusing a
    /// key it has already.
    mutating func addMember(_ value: JSONValue, to top: Int) throws(JSONSyntaxError) {
        let key = open[top].key
        let start = open[top].start
        let duplicate: Bool
        if open[top].seen != nil {
            duplicate = !open[top].seen!.insert(UTF8Key(key)).inserted
        } else if members.count - start >= Parser.hashedKeysAbove {
            var seen = Set(members[start...].lazy.map { UTF8Key($0.key) })
            duplicate = !seen.insert(UTF8Key(key)).inserted
            open[top].seen = seen
        } else {
            duplicate = members[start...].contains { UTF8Key.equal($0.key, key) }
        }
        if duplicate {
            throw fail(
                .duplicateKey, "duplicate key \(quoted(key)) in an object", at: open[top].keyOffset)
        }
        members.append(JSONObject.Member(key: key, value: value))
    }

    /// After an object member: reads `,` and the next key (true), or the closing `}`
    /// (false).
    mutating func nextMember(of top: Int) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard i < bytes.count else { throw endOfInput(expecting: "',' or '}'") }
        if bytes[i] == Byte.comma {
            let comma = i
            i += 1
            skipWhitespace()
            if i < bytes.count && bytes[i] == Byte.closeBrace {
                throw fail(.trailingComma, "trailing comma before '}'", at: comma)
            }
            (open[top].key, open[top].keyOffset) = try objectKey()
            return true
        }
        guard bytes[i] == Byte.closeBrace else {
            throw fail(
                .unexpectedCharacter,
                "expected ',' or '}' after an object member, found \(describe(at: i))", at: i)
        }
        i += 1
        return false
    }

    /// After an array element: reads `,` (true) or the closing `]` (false).
    mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard i < bytes.count else { throw endOfInput(expecting: "',' or ']'") }
        if bytes[i] == Byte.comma {
            let comma = i
            i += 1
            skipWhitespace()
            if i < bytes.count && bytes[i] == Byte.closeBracket {
                throw fail(.trailingComma, "trailing comma before ']'", at: comma)
            }
            return true
        }
        guard bytes[i] == Byte.closeBracket else {
            throw fail(
                .unexpectedCharacter,
                "expected ',' or ']' after an array element, found \(describe(at: i))", at: i)
        }
        i += 1
        return false
    }

    func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
        if depth >= maxDepth {
            throw fail(.tooDeep, "arrays and objects nested deeper than \(maxDepth) levels", at: i)
        }
    }

    func endOfInput(expecting what: String) -> JSONSyntaxError {
        fail(.unexpectedEndOfInput, "unexpected end of input, expected \(what)", at: i)
    }

    /// Reads `"key" :` and returns the key and where it started.
    mutating func objectKey() throws(JSONSyntaxError) -> (String, Int) {
        skipWhitespace()
        guard i < bytes.count else { throw endOfInput(expecting: "a string key") }
        let start = i
        switch bytes[i] {
        case Byte.quote:
            break
        case UInt8(ascii: "'"):
            throw fail(.singleQuotedString, "keys must be in double quotes, not single quotes", at: i)
        case UInt8(ascii: "/"):
            throw fail(.comment, "comments are not allowed in JSON", at: i)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "_"), UInt8(ascii: "$"):
            throw fail(.unquotedKey, "object keys must be strings in double quotes", at: i)
        default:
            throw fail(
                .unexpectedCharacter, "expected a string key, found \(describe(at: i))", at: i)
        }
        let key = try string()
        skipWhitespace()
        guard i < bytes.count else { throw endOfInput(expecting: "':'") }
        guard bytes[i] == Byte.colon else {
            throw fail(
                .unexpectedCharacter, "expected ':' after an object key, found \(describe(at: i))",
                at: i)
        }
        i += 1
        return (key, start)
    }

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
            throw fail(.singleQuotedString, "strings must be in double quotes, not single quotes", at: i)
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
        let length = JSONNumber.grammarLength(bytes, from: i)
        if length < 0 {
            let bad = -length - 1
            if bytes[start] == Byte.minus && bad == start + 1 && bad < bytes.count
                && bytes[bad] == UInt8(ascii: "I")
            {
                throw fail(.nonFiniteNumber, "NaN and Infinity are not valid JSON numbers", at: start)
            }
            let afterZero = bad > start && bytes[bad - 1] == 0x30
                && (bad - 1 == start || bytes[bad - 2] == Byte.minus)
            if afterZero && bad < bytes.count && bytes[bad] >= 0x30 && bytes[bad] <= 0x39 {
                throw fail(.invalidNumber, "numbers cannot have leading zeros", at: start)
            }
            let found = bad < bytes.count ? describe(at: bad) : "end of input"
            throw fail(.invalidNumber, "invalid number: expected a digit, found \(found)", at: bad)
        }
        i += length
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        return JSONNumber(uncheckedText: text)
    }

    /// Reads a string starting at its opening quote.
    mutating func string() throws(JSONSyntaxError) -> String {
        let open = i
        i += 1
        let start = i
        // Fast path: no escapes, so the bytes between the quotes are the string.
        while i < bytes.count {
            let byte = bytes[i]
            if byte == Byte.quote {
                let s = String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if byte == Byte.backslash { break }
            if byte < 0x20 { throw controlCharacter(byte) }
            if byte < 0x80 { i += 1 } else { i += try utf8Sequence() }
        }
        var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<i]))
        while i < bytes.count {
            let byte = bytes[i]
            if byte == Byte.quote {
                i += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == Byte.backslash {
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
        default: name = "the control character U+00\(hex2(byte)) (write it as \\u00\(hex2(byte)))"
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
        case Byte.quote, Byte.backslash, UInt8(ascii: "/"): scratch.append(c)
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
                guard i + 1 < bytes.count, bytes[i] == Byte.backslash, bytes[i + 1] == UInt8(ascii: "u")
                else {
                    throw fail(
                        .loneSurrogate,
                        "lone surrogate \\u\(hex4(unit)): a high surrogate must be followed by a low one",
                        at: start)
                }
                i += 2
                let low = try hexUnit(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw fail(
                        .loneSurrogate,
                        "lone surrogate \\u\(hex4(unit)): followed by \\u\(hex4(low)), not a low surrogate",
                        at: start)
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw fail(
                    .loneSurrogate,
                    "lone surrogate \\u\(hex4(unit)): a low surrogate without a high one before it",
                    at: start)
            }
            scratch.append(contentsOf: Array(String(Unicode.Scalar(scalarValue)!).utf8))
        default:
            let shown = c >= 0x20 && c < 0x7F ? "\\" + String(Unicode.Scalar(c)) : "\\ followed by \(describe(at: i - 1))"
            throw fail(.invalidEscape, "invalid escape \(shown) in a string", at: start)
        }
    }

    /// Reads the four hex digits after `\u`.
    mutating func hexUnit(escapeStart: Int) throws(JSONSyntaxError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard i < bytes.count else { throw endOfInput(expecting: "four hex digits after \\u") }
            let c = bytes[i]
            let digit: UInt8
            switch c {
            case 0x30...0x39: digit = c - 0x30
            case 0x61...0x66: digit = c - 0x61 + 10
            case 0x41...0x46: digit = c - 0x41 + 10
            default:
                throw fail(.invalidEscape, "\\u must be followed by four hex digits", at: escapeStart)
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
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F  // no encoded surrogates
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default:
            throw fail(.invalidUTF8, "invalid UTF-8: byte \(hex(lead)) cannot start a character", at: i)
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
                    .invalidUTF8, "invalid UTF-8: byte \(hex(byte)) after \(hex(lead))", at: i)
            }
        }
        return length
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
            return "U+\(String(scalar.value, radix: 16, uppercase: true)) '\(Display.escaped(text))'"
        }
        return "byte \(hex(byte))"
    }

    func describeChar(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "U+00\(hex2(byte))"
    }

    func quoted(_ s: String) -> String { "\"\(Display.escaped(s))\"" }
}

private func hex(_ byte: UInt8) -> String { "0x" + hex2(byte) }

private func hex2(_ byte: UInt8) -> String {
    let s = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0" + s : s
}

private func hex4(_ unit: UInt16) -> String {
    let s = String(unit, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - s.count) + s
}
