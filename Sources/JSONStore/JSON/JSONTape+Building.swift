/// Building a tape: the reader's grammar, checked by the same steps in the same order as
/// `document()`, so a text gives a tape exactly when it gives a value, and the same error
/// when it gives none (up to its limits: 2^28 - 1 members or elements in a container, a
/// text under 4 GiB); but no container is made, and no string but one with escapes, to
/// check them.
extension JSONParser {
    /// Builds the input's tape in `tape` (empty), or throws the error `document()` would.
    mutating func tape(into tape: inout JSONTape) throws(JSONSyntaxError) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        skipWhitespace()
        if i == bytes.count {
            throw fail(.empty, "no JSON value: the input is empty", at: i)
        }
        // The innermost open container's entry, -1 for none. While a container is open its
        // `extent` holds the entry of the one around it, plus one: the stack lives in the
        // tape itself.
        var top = -1
        var depth = 0
        // Objects with many members: their keys so far, for the duplicate check.
        var seen: [Int: Set<UTF8Key>] = [:]
        nextValue: while true {
            skipWhitespace()
            guard i < bytes.count else { throw endOfInput(expecting: "a value") }
            var done = tape.entries.count
            switch bytes[i] {
            case JSONByte.openBrace, JSONByte.openBracket:
                try checkDepth(depth)
                let isObject = bytes[i] == JSONByte.openBrace
                let kind: JSONTape.Kind = isObject ? .object : .array
                let at = UInt32(i)
                i += 1
                skipWhitespace()
                if i < bytes.count
                    && bytes[i] == (isObject ? JSONByte.closeBrace : JSONByte.closeBracket)
                {
                    i += 1
                    tape.entries.append(.init(kind, start: at, extent: UInt32(done + 1)))
                } else {
                    tape.entries.append(.init(kind, start: at, extent: UInt32(top + 1)))
                    top = done
                    depth += 1
                    if isObject { try tapeKey(into: &tape) }
                    continue nextValue
                }
            case JSONByte.quote:
                try tapeString(into: &tape)
            case JSONByte.minus, 0x30...0x39:
                let start = i
                try skipNumber()
                let fraction = bytes[start..<i].contains { $0 == 0x2E || $0 | 0x20 == 0x65 }
                tape.entries.append(
                    .init(.number, flag: fraction, start: UInt32(start), extent: UInt32(i - start)))
            default:
                let at = UInt32(i)
                let kind: JSONTape.Kind =
                    switch try literal() {
                    case .bool(true): .true
                    case .bool(false): .false
                    default: .null
                    }
                tape.entries.append(.init(kind, start: at, extent: 0))
            }

            // Count the finished value in its container, closing containers as they end.
            while true {
                guard top >= 0 else { return try end() }
                guard tape.entries[top].word < JSONTape.Entry.fullCount else {
                    throw fail(
                        .tooLarge,
                        "more than \(JSONTape.Entry.fullCount >> 4) members or elements in one container",
                        at: Int(tape.entries[top].start))
                }
                if tape.entries[top].kind == .object {
                    try checkUnique(key: done - 1, of: top, in: tape, seen: &seen)
                    tape.entries[top].word += 16
                    if try next(closing: JSONByte.closeBrace, after: "an object member") {
                        try tapeKey(into: &tape)
                        continue nextValue
                    }
                    seen[top] = nil
                } else {
                    tape.entries[top].word += 16
                    if try next(closing: JSONByte.closeBracket, after: "an array element") {
                        continue nextValue
                    }
                }
                done = top
                top = Int(tape.entries[done].extent) - 1
                tape.entries[done].extent = UInt32(tape.entries.count)
                depth -= 1
            }
        }
    }

    /// Reads `"key" :` into the tape as a string.
    private mutating func tapeKey(into tape: inout JSONTape) throws(JSONSyntaxError) {
        _ = try keyStart()
        try tapeString(into: &tape)
        try keyColon()
    }

    /// Reads the string at `i` into the tape.
    private mutating func tapeString(into tape: inout JSONTape) throws(JSONSyntaxError) {
        let (text, escaped) = try skipString()
        tape.entries.append(
            .init(
                .string, flag: escaped, start: UInt32(text.lowerBound), extent: UInt32(text.count)))
    }

    /// Refuses the key at `key` if `object` has it already among its members so far.
    private func checkUnique(
        key: Int, of object: Int, in tape: JSONTape, seen: inout [Int: Set<UTF8Key>]
    ) throws(JSONSyntaxError) {
        let count = tape.entries[object].count
        let duplicate: Bool
        if seen[object] != nil {
            duplicate = !seen[object]!.insert(UTF8Key(tape.string(at: key, in: bytes))).inserted
        } else if count >= JSONParser.hashedKeysAbove {
            var keys = Set<UTF8Key>()
            var entry = object + 1
            for _ in 0..<count {
                keys.insert(UTF8Key(tape.string(at: entry, in: bytes)))
                entry = tape.next(after: entry + 1)
            }
            duplicate = !keys.insert(UTF8Key(tape.string(at: key, in: bytes))).inserted
            seen[object] = keys
        } else {
            var entry = object + 1
            var found = false
            for _ in 0..<count where !found {
                found = tape.sameKey(entry, key, in: bytes)
                entry = tape.next(after: entry + 1)
            }
            duplicate = found
        }
        if duplicate {
            let text = tape.string(at: key, in: bytes)
            throw fail(
                .duplicateKey, "duplicate key \(quoted(text)) in an object",
                at: Int(tape.entries[key].start) - 1)
        }
    }
}

extension JSONTape.Entry {
    init(_ kind: JSONTape.Kind, flag: Bool = false, start: UInt32, extent: UInt32) {
        self.init(word: UInt32(kind.rawValue) | (flag ? 16 : 0), start: start, extent: extent)
    }
}
