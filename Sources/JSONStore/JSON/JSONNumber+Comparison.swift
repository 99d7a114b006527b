extension JSONNumber {
    /// Compares two numbers by their exact decimal values: negative, zero or positive.
    ///
    /// Numbers keep their text, so nothing is rounded: `9007199254740993` is greater than
    /// `9007199254740992` (equal as doubles), `0.1` is less than `0.10000000000000001`, and
    /// `1e400` is greater than `1e399` (both infinite as doubles). Equal values written
    /// differently compare equal: `2`, `2.0`, `20e-1`, `0.2E1`.
    ///
    /// - Complexity: O(n) in the length of the texts, with no allocation unless an
    ///   exponent has more than 18 digits.
    package static func compareValues(_ a: JSONNumber, _ b: JSONNumber) -> Int {
        var a = a.text
        var b = b.text
        return a.withUTF8 { x in b.withUTF8 { y in compare(Decimal(x), Decimal(y)) } }
    }

    /// Whether two numbers have the same exact decimal value (`2` and `2.0` do).
    package static func equalValues(_ a: JSONNumber, _ b: JSONNumber) -> Bool {
        a.text == b.text || compareValues(a, b) == 0
    }

    /// A view of a number's text as sign × 0.d₁d₂…dₙ × 10^adjusted, d₁ ≠ 0 and dₙ ≠ 0.
    private struct Decimal {
        let bytes: UnsafeBufferPointer<UInt8>
        var negative = false
        /// Where the integer digits start, how many there are, and whether a `.` follows
        /// them (the fraction's digits come after it).
        var integerStart = 0
        var integerCount = 0
        /// The significant digits, as indices into the digits of integer and fraction
        /// joined (the `.` skipped): `low..<high`. Empty for zero.
        var low = 0
        var high = 0
        /// The exponent of the first significant digit, when it fits an `Int`.
        var adjusted = 0
        /// The exponent's text when it has more than 18 digits: then `adjusted` is
        /// worked out exactly, in decimal, on demand.
        var longExponent: (negative: Bool, digits: Range<Int>)? = nil

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            var i = 0
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") {
                negative = true
                i += 1
            }
            integerStart = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            integerCount = i - integerStart
            var fractionCount = 0
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                while i < bytes.count, isDigit(bytes[i]) {
                    i += 1
                    fractionCount += 1
                }
            }
            let total = integerCount + fractionCount
            low = 0
            while low < total, digit(low) == 0 { low += 1 }
            high = total
            while high > low, digit(high - 1) == 0 { high -= 1 }
            var exponent = 0
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                var exponentNegative = false
                if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                    exponentNegative = bytes[i] == UInt8(ascii: "-")
                    i += 1
                }
                while i < bytes.count - 1, bytes[i] == UInt8(ascii: "0") { i += 1 }
                if bytes.count - i > 18 {
                    longExponent = (exponentNegative, i..<bytes.count)
                } else {
                    while i < bytes.count {
                        exponent = exponent * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                        i += 1
                    }
                    if exponentNegative { exponent = -exponent }
                }
            }
            adjusted = integerCount - low + exponent
        }

        var isZero: Bool { low == high }

        /// The digit at `index` of integer and fraction joined.
        func digit(_ index: Int) -> UInt8 {
            let position = integerStart + index + (index < integerCount ? 0 : 1)
            return bytes[position] - UInt8(ascii: "0")
        }

        /// `adjusted` exactly, as a sign and decimal digits (most significant first).
        func bigAdjusted() -> (negative: Bool, digits: [UInt8]) {
            guard let long = longExponent else { return BigDecimal.make(adjusted) }
            let exponent = (long.negative, long.digits.map { bytes[$0] - UInt8(ascii: "0") })
            return BigDecimal.add(exponent, BigDecimal.make(integerCount - low))
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func compare(_ x: Decimal, _ y: Decimal) -> Int {
        if x.isZero || y.isZero {
            if x.isZero && y.isZero { return 0 }
            return x.isZero ? (y.negative ? 1 : -1) : (x.negative ? -1 : 1)
        }
        if x.negative != y.negative { return x.negative ? -1 : 1 }
        let magnitude = compareMagnitudes(x, y)
        return x.negative ? -magnitude : magnitude
    }

    private static func compareMagnitudes(_ x: Decimal, _ y: Decimal) -> Int {
        if x.longExponent == nil && y.longExponent == nil {
            if x.adjusted != y.adjusted { return x.adjusted < y.adjusted ? -1 : 1 }
        } else {
            let order = BigDecimal.compare(x.bigAdjusted(), y.bigAdjusted())
            if order != 0 { return order }
        }
        var (i, j) = (x.low, y.low)
        while i < x.high && j < y.high {
            let (dx, dy) = (x.digit(i), y.digit(j))
            if dx != dy { return dx < dy ? -1 : 1 }
            i += 1
            j += 1
        }
        // The same leading digits: the one with digits left (none of them trailing zeros)
        // is the larger.
        let xLeft = x.high - i
        let yLeft = y.high - j
        return xLeft == yLeft ? 0 : (xLeft < yLeft ? -1 : 1)
    }
}
