/// A JSON number as `digits × 10^exponent`, exact: what `multipleOf` and the `integer`
/// type need, which the store's comparisons (`JSONNumber.compareValues`) do not give.
///
/// `multipleOf: 0.01` holds for `19.99` (in binary floating point it does not), and
/// `1.0` and `1e2` are integers.
struct SchemaNumber {
    /// The significant digits, most significant first, without leading or trailing
    /// zeros; empty for zero.
    let digits: [UInt8]
    /// The power of ten the digits are multiplied by.
    let exponent: Int
    let negative: Bool

    /// The most digits a `multipleOf` division works on; past it (exponents thousands
    /// apart) the answer comes from `Double`, as a reasonable validator's would.
    static let digitLimit = 20_000

    init(_ number: JSONNumber) {
        var negative = false
        var mantissa: [UInt8] = []
        var fractionDigits = 0
        var exponentText = ""
        var inFraction = false
        var inExponent = false
        for byte in number.text.utf8 {
            switch byte {
            case UInt8(ascii: "-") where !inExponent: negative = true
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case _ where inExponent: exponentText.append(Character(Unicode.Scalar(byte)))
            default:
                mantissa.append(byte - UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            }
        }
        // An exponent too long for an Int is clamped: the value is astronomically large or
        // small, and so is the clamped one.
        let written =
            exponentText.isEmpty
            ? 0 : Int(exponentText) ?? (exponentText.hasPrefix("-") ? Int.min / 4 : Int.max / 4)
        let first = mantissa.firstIndex { $0 != 0 } ?? mantissa.count
        var last = mantissa.count
        while last > first && mantissa[last - 1] == 0 { last -= 1 }
        digits = Array(mantissa[first..<last])
        exponent =
            digits.isEmpty
            ? 0 : written.clampedAdding(-(fractionDigits - (mantissa.count - last)))
        self.negative = negative && !digits.isEmpty
    }

    var isZero: Bool { digits.isEmpty }

    /// Whether the value is a whole number.
    var isInteger: Bool { isZero || exponent >= 0 }

    /// Whether `self` divided by `divisor` (positive) is a whole number.
    func isMultiple(of divisor: SchemaNumber, fallback: (Double, Double)) -> Bool {
        if isZero { return true }
        guard !divisor.isZero else { return false }
        // self / divisor = (d / D) × 10^(e − E)
        let shift = exponent.clampedAdding(-divisor.exponent)
        let dividendLength = digits.count + max(shift, 0)
        let divisorLength = divisor.digits.count + max(-shift, 0)
        guard dividendLength <= Self.digitLimit, divisorLength <= Self.digitLimit else {
            let quotient = fallback.0 / fallback.1
            return quotient.isFinite ? quotient == quotient.rounded() : false
        }
        if divisorLength > dividendLength { return false }  // 0 < |self| < |divisor|
        let dividend = digits + [UInt8](repeating: 0, count: max(shift, 0))
        let modulus = divisor.digits + [UInt8](repeating: 0, count: max(-shift, 0))
        return Self.remainderIsZero(dividend, modulus)
    }

    /// Long division digit by digit: whether `dividend` mod `modulus` is zero.
    private static func remainderIsZero(_ dividend: [UInt8], _ modulus: [UInt8]) -> Bool {
        var remainder: [UInt8] = []
        for digit in dividend {
            if !(remainder.isEmpty && digit == 0) { remainder.append(digit) }
            while compare(remainder, modulus) >= 0 { subtract(&remainder, modulus) }
        }
        return remainder.isEmpty
    }

    private static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    /// `a -= b`, for `a >= b`, leading zeros dropped.
    private static func subtract(_ a: inout [UInt8], _ b: [UInt8]) {
        var borrow: UInt8 = 0
        var i = a.count - 1
        var j = b.count - 1
        while i >= 0 {
            let subtrahend = (j >= 0 ? b[j] : 0) + borrow
            if a[i] >= subtrahend {
                a[i] -= subtrahend
                borrow = 0
            } else {
                a[i] = a[i] + 10 - subtrahend
                borrow = 1
            }
            i -= 1
            j -= 1
        }
        let first = a.firstIndex { $0 != 0 } ?? a.count
        a.removeFirst(first)
    }
}

extension Int {
    /// `self + other`, held within a quarter of `Int`'s range instead of overflowing.
    fileprivate func clampedAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        if overflow { return other > 0 ? Int.max / 4 : Int.min / 4 }
        return Swift.max(Int.min / 4, Swift.min(Int.max / 4, sum))
    }
}

extension JSONNumber {
    /// Whether the value is a whole number, exactly as JSON Schema's `integer` has it:
    /// `1.0` and `1e2` are, `1.5` and `1e-2` are not.
    ///
    /// Digits alone (the common case) are whole at once; a fraction or an exponent is
    /// worked out exactly.
    public var isWhole: Bool {
        text.utf8.allSatisfy { $0 != UInt8(ascii: ".") && $0 | 0x20 != UInt8(ascii: "e") }
            || SchemaNumber(self).isInteger
    }
}
