/// The reader at work over one input: `document()` makes its value, `tape()`
/// (`JSONTape+Building.swift`) its tape; numbers and literals are read in
/// `JSONParser+Scalars.swift`, strings in `JSONParser+Strings.swift`.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var i = 0
    /// The open containers, innermost last.
    var open: [JSONOpenContainer] = []
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
            case JSONByte.openBrace:
                try checkDepth(open.count)
                i += 1
                skipWhitespace()
                if i < bytes.count && bytes[i] == JSONByte.closeBrace {
                    i += 1
                    value = .object(JSONObject())
                } else {
                    let (key, keyOffset) = try objectKey()
                    open.append(
                        JSONOpenContainer(
                            isObject: true, start: members.count, key: key, keyOffset: keyOffset))
                    continue nextValue
                }
            case JSONByte.openBracket:
                try checkDepth(open.count)
                i += 1
                skipWhitespace()
                if i < bytes.count && bytes[i] == JSONByte.closeBracket {
                    i += 1
                    value = .array([])
                } else {
                    open.append(JSONOpenContainer(isObject: false, start: elements.count))
                    continue nextValue
                }
            case JSONByte.quote:
                value = .string(try string())
            case JSONByte.minus, 0x30...0x39:
                value = .number(try number())
            default:
                value = try literal()
            }

            // Attach the finished value to its container, closing containers as they end.
            while true {
                guard let top = open.indices.last else {
                    try end()
                    return value
                }
                if open[top].isObject {
                    try addMember(value, to: top)
                    if try nextMember(of: top) { continue nextValue }
                    let start = open.removeLast().start
                    value = .object(JSONObject(uniqueMembers: exactCopy(members[start...])))
                    members.removeSubrange(start...)
                } else {
                    elements.append(value)
                    if try nextElement() { continue nextValue }
                    let start = open.removeLast().start
                    value = .array(exactCopy(elements[start...]))
                    elements.removeSubrange(start...)
                }
            }
        }
    }

    /// Appends the member whose value was just read to the object `open[top]`, refusing a
    /// key it has already.
    /// A container's own array, at its exact size. `Array(slice)` would hand over the
    /// stack's buffer itself when the slice is all of it, with the stack's spare capacity:
    /// a document's outermost container, so every item, would keep up to half again.
    private func exactCopy<T>(_ slice: ArraySlice<T>) -> [T] {
        Array(uninitializedCount: slice.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: slice)
        }
    }

    mutating func addMember(_ value: JSONValue, to top: Int) throws(JSONSyntaxError) {
        let key = open[top].key
        let start = open[top].start
        let duplicate: Bool
        if open[top].seen != nil {
            duplicate = !open[top].seen!.insert(UTF8Key(key)).inserted
        } else if members.count - start >= JSONParser.hashedKeysAbove {
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
        guard try next(closing: JSONByte.closeBrace, after: "an object member") else {
            return false
        }
        (open[top].key, open[top].keyOffset) = try objectKey()
        return true
    }

    /// After an array element: reads `,` (true) or the closing `]` (false).
    mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        try next(closing: JSONByte.closeBracket, after: "an array element")
    }

    /// After an element or member (`what`) of a container that `close` ends: reads `,`
    /// (true, refusing a trailing comma) or `close` (false).
    mutating func next(closing close: UInt8, after what: String) throws(JSONSyntaxError)
        -> Bool
    {
        let shown = close == JSONByte.closeBrace ? "'}'" : "']'"
        skipWhitespace()
        guard i < bytes.count else { throw endOfInput(expecting: "',' or \(shown)") }
        if bytes[i] == JSONByte.comma {
            let comma = i
            i += 1
            skipWhitespace()
            if i < bytes.count && bytes[i] == close {
                throw fail(.trailingComma, "trailing comma before \(shown)", at: comma)
            }
            return true
        }
        guard bytes[i] == close else {
            throw fail(
                .unexpectedCharacter,
                "expected ',' or \(shown) after \(what), found \(describe(at: i))", at: i)
        }
        i += 1
        return false
    }

    /// After the document's value: refuses anything but whitespace.
    mutating func end() throws(JSONSyntaxError) {
        skipWhitespace()
        if i < bytes.count {
            throw fail(.trailingData, "unexpected \(describe(at: i)) after the JSON value", at: i)
        }
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
        let start = try keyStart()
        let key = try string()
        try keyColon()
        return (key, start)
    }

    /// Steps to the opening quote of an object's key and returns where it is, or explains
    /// what is there instead.
    mutating func keyStart() throws(JSONSyntaxError) -> Int {
        skipWhitespace()
        guard i < bytes.count else { throw endOfInput(expecting: "a string key") }
        switch bytes[i] {
        case JSONByte.quote:
            return i
        case UInt8(ascii: "'"):
            throw fail(
                .singleQuotedString, "keys must be in double quotes, not single quotes", at: i)
        case UInt8(ascii: "/"):
            throw fail(.comment, "comments are not allowed in JSON", at: i)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "_"), UInt8(ascii: "$"):
            throw fail(.unquotedKey, "object keys must be strings in double quotes", at: i)
        default:
            throw fail(
                .unexpectedCharacter, "expected a string key, found \(describe(at: i))", at: i)
        }
    }

    /// Reads the `:` after an object's key.
    mutating func keyColon() throws(JSONSyntaxError) {
        skipWhitespace()
        guard i < bytes.count else { throw endOfInput(expecting: "':'") }
        guard bytes[i] == JSONByte.colon else {
            throw fail(
                .unexpectedCharacter, "expected ':' after an object key, found \(describe(at: i))",
                at: i)
        }
        i += 1
    }
}

/// One open array or object while reading.
///
/// Its elements or members so far sit at the end of the parser's shared `elements` or
/// `members` stack, from `start` on: a container is a range of a stack that is appended
/// to in place, never a value that is copied and rebuilt, so reading stays linear in the
/// length of every array and object.
struct JSONOpenContainer {
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

/// The bytes of JSON's punctuation.
enum JSONByte {
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
