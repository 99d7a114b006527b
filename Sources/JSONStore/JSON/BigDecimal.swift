/// Signed integers of any length as decimal digits, for exponents too long for an `Int`.
enum BigDecimal {
    typealias Value = (negative: Bool, digits: [UInt8])

    static func make(_ value: Int) -> Value {
        let digits = String(value.magnitude).utf8.map { $0 - UInt8(ascii: "0") }
        return (value < 0, digits)
    }

    static func normalized(_ digits: [UInt8]) -> [UInt8] {
        let first = digits.firstIndex { $0 != 0 } ?? digits.count
        return Array(digits[first...])
    }

    static func compareMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let (a, b) = (normalized(a), normalized(b))
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    static func compare(_ a: Value, _ b: Value) -> Int {
        let aZero = normalized(a.digits).isEmpty
        let bZero = normalized(b.digits).isEmpty
        let aNegative = a.negative && !aZero
        let bNegative = b.negative && !bZero
        if aNegative != bNegative { return aNegative ? -1 : 1 }
        let magnitude = compareMagnitudes(a.digits, b.digits)
        return aNegative ? -magnitude : magnitude
    }

    static func add(_ a: Value, _ b: Value) -> Value {
        if a.negative == b.negative { return (a.negative, addMagnitudes(a.digits, b.digits)) }
        // Opposite signs: the larger magnitude less the smaller, with the larger's sign.
        if compareMagnitudes(a.digits, b.digits) >= 0 {
            return (a.negative, subtractMagnitudes(a.digits, b.digits))
        }
        return (b.negative, subtractMagnitudes(b.digits, a.digits))
    }

    private static func addMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var carry: UInt8 = 0
        var (i, j) = (a.count - 1, b.count - 1)
        while i >= 0 || j >= 0 || carry > 0 {
            let sum = (i >= 0 ? a[i] : 0) + (j >= 0 ? b[j] : 0) + carry
            result.append(sum % 10)
            carry = sum / 10
            i -= 1
            j -= 1
        }
        return result.reversed()
    }

    /// `a - b` for `a >= b`.
    private static func subtractMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var borrow: Int = 0
        var (i, j) = (a.count - 1, b.count - 1)
        while i >= 0 {
            var difference = Int(a[i]) - (j >= 0 ? Int(b[j]) : 0) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 10 }
            result.append(UInt8(difference))
            i -= 1
            j -= 1
        }
        return normalized(result.reversed())
    }
}
