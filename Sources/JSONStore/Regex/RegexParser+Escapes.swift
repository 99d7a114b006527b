extension RegexParser {
    /// After a `\` outside a class: a backreference, a class escape or a character.
    mutating func atomEscape() throws(RegexError) -> RegexNode {
        i += 1
        guard let c = current else { throw error("a \\ at the end of the pattern") }
        if c >= ascii("1") && c <= ascii("9"), let number = number() {
            return .backreference(number)
        }
        if c == ascii("k") {
            i += 1
            guard eat("<") else { throw error("\\k must be followed by <name>") }
            return .namedBackreference(try groupName())
        }
        if let set = try classEscape() { return .set(set) }
        return .scalar(try characterEscape(inClass: false))
    }

    /// `\d \D \w \W \s \S \p{…} \P{…}`, with `i` on the letter; `nil` for another escape.
    mutating func classEscape() throws(RegexError) -> RegexSet? {
        guard let c = current else { return nil }
        var set: RegexSet
        switch c {
        case ascii("d"), ascii("D"): set = .digit
        case ascii("w"), ascii("W"): set = .word
        case ascii("s"), ascii("S"): set = .space
        case ascii("p"), ascii("P"):
            i += 1
            set = try propertyEscape()
            set.negated = c == ascii("P")
            return set
        default: return nil
        }
        i += 1
        set.negated = c < ascii("a")  // the capital letter
        return set
    }

    /// A character escape, with `i` on the character after the `\`.
    mutating func characterEscape(inClass: Bool) throws(RegexError) -> UInt32 {
        let c = current!
        i += 1
        switch c {
        case ascii("t"): return 0x09
        case ascii("n"): return 0x0A
        case ascii("v"): return 0x0B
        case ascii("f"): return 0x0C
        case ascii("r"): return 0x0D
        case ascii("b") where inClass: return 0x08
        case ascii("-") where inClass: return c
        case ascii("0"):
            if let d = current, d >= ascii("0"), d <= ascii("9") {
                throw error("\\0 followed by a digit")
            }
            return 0
        case ascii("c"):
            guard let letter = current,
                (letter >= ascii("a") && letter <= ascii("z"))
                    || (letter >= ascii("A") && letter <= ascii("Z"))
            else { throw error("\\c must be followed by a letter") }
            i += 1
            return letter % 32
        case ascii("x"):
            guard let value = hex(count: 2) else {
                throw error("\\x must be followed by 2 hex digits")
            }
            return value
        case ascii("u"): return try unicodeEscape()
        default:
            // The u flag allows only syntax characters and / to be escaped as themselves.
            if "^$\\.*+?()[]{}|/".unicodeScalars.contains(where: { $0.value == c }) { return c }
            i -= 1
            throw error("\\\(Character(Unicode.Scalar(c) ?? "?")) is not an escape")
        }
    }

    private mutating func unicodeEscape() throws(RegexError) -> UInt32 {
        if eat("{") {
            var value: UInt32 = 0
            var digits = 0
            while let c = current, let digit = hexValue(c) {
                value = value * 16 + digit
                digits += 1
                i += 1
                if value > 0x10FFFF { throw error("\\u{…} is past U+10FFFF") }
            }
            guard digits > 0, eat("}") else { throw error("\\u{ must hold hex digits and close") }
            return value
        }
        guard let high = hex(count: 4) else { throw error("\\u must be followed by 4 hex digits") }
        // A surrogate pair written as two escapes is one code point.
        if (0xD800...0xDBFF).contains(high), i + 5 < scalars.count,
            current == ascii("\\"), scalars[i + 1] == ascii("u")
        {
            let save = i
            i += 2
            if let low = hex(count: 4), (0xDC00...0xDFFF).contains(low) {
                return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            }
            i = save
        }
        return high
    }

    private mutating func hex(count: Int) -> UInt32? {
        guard i + count <= scalars.count else { return nil }
        var value: UInt32 = 0
        for k in 0..<count {
            guard let digit = hexValue(scalars[i + k]) else { return nil }
            value = value * 16 + digit
        }
        i += count
        return value
    }

    private func hexValue(_ c: UInt32) -> UInt32? {
        switch c {
        case ascii("0")...ascii("9"): c - ascii("0")
        case ascii("a")...ascii("f"): c - ascii("a") + 10
        case ascii("A")...ascii("F"): c - ascii("A") + 10
        default: nil
        }
    }

    // MARK: Classes

    /// `[…]`, with `i` on the `[`.
    mutating func characterClass() throws(RegexError) -> RegexSet {
        i += 1
        var set = RegexSet()
        if eat("^") { set.negated = true }
        while true {
            guard let c = current else { throw error("a [ is not closed") }
            if c == ascii("]") {
                i += 1
                return set
            }
            let low = try classAtom()
            if current == ascii("-"), i + 1 < scalars.count, scalars[i + 1] != ascii("]") {
                i += 1
                let high = try classAtom()
                guard case .scalar(let a) = low, case .scalar(let b) = high else {
                    throw error("a class range must be between two characters")
                }
                guard a <= b else { throw error("a class range is out of order") }
                set.ranges.append(a...b)
            } else {
                switch low {
                case .scalar(let a): set.ranges.append(a...a)
                case .set(let inner): set.add(inner)
                }
            }
        }
    }

    private enum ClassAtom {
        case scalar(UInt32)
        case set(RegexSet)
    }

    private mutating func classAtom() throws(RegexError) -> ClassAtom {
        let c = current!
        guard c == ascii("\\") else {
            i += 1
            return .scalar(c)
        }
        i += 1
        guard current != nil else { throw error("a \\ at the end of the pattern") }
        if let set = try classEscape() { return .set(set) }
        return .scalar(try characterEscape(inClass: true))
    }
}
