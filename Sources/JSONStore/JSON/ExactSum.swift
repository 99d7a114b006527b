/// A running sum of JSON numbers that adding and taking away leave exact: `0.1 + 0.2`
/// is `0.3`, and taking a number away again gives back exactly the sum before it.
///
/// The sum is a 128-bit integer and a count of decimal places: exact while it fits in 38
/// digits. A number that does not fit (more digits, or an exponent beyond them) turns it
/// into a `Double` sum from then on, as inexact as one.
struct ExactSum: Sendable, Equatable {
    private enum State: Sendable, Equatable {
        case exact(significand: Int128, scale: Int)
        case approximate(Double)
    }

    private var state = State.exact(significand: 0, scale: 0)

    init() {}

    /// Equal when the sums are the same number (however many places either keeps).
    static func == (a: ExactSum, b: ExactSum) -> Bool { a.value == b.value }

    mutating func add(_ number: JSONNumber) { combine(number, negate: false) }

    mutating func subtract(_ number: JSONNumber) { combine(number, negate: true) }

    /// `number` in its shortest exact spelling (`2.0` as `2`, `1e1` as `10`, `0.50` as
    /// `0.5`), or as it is when it has more than 38 digits.
    static func canonical(_ number: JSONNumber) -> JSONNumber {
        var sum = ExactSum()
        sum.add(number)
        return sum.isExact ? sum.value : number
    }

    /// Whether the sum is still exact.
    var isExact: Bool {
        if case .exact = state { return true }
        return false
    }

    /// The sum as a JSON number: exact digits, no trailing zeros after the point.
    var value: JSONNumber {
        switch state {
        case .approximate(let double):
            let finite =
                double.isFinite
                ? double
                : double.sign == .minus ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude
            return JSONNumber(finite)
        case .exact(var significand, var scale):
            while scale > 0 && significand % 10 == 0 {
                significand /= 10
                scale -= 1
            }
            let negative = significand < 0
            var digits = String(significand.magnitude)
            if scale > 0 {
                if digits.count <= scale {
                    digits = String(repeating: "0", count: scale - digits.count + 1) + digits
                }
                digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
            }
            return JSONNumber(uncheckedText: (negative ? "-" : "") + digits)
        }
    }

    private mutating func combine(_ number: JSONNumber, negate: Bool) {
        guard case .exact(let sum, let scale) = state else { return approximate(number, negate) }
        guard let (magnitude, places) = Self.decimal(number.text) else {
            return approximate(number, negate)
        }
        var term = magnitude
        if negate { term = -term }
        var (total, common) = (sum, scale)
        if places > common {
            guard let scaled = Self.scaled(total, by: places - common) else {
                return approximate(number, negate)
            }
            (total, common) = (scaled, places)
        } else if places < common {
            guard let scaled = Self.scaled(term, by: common - places) else {
                return approximate(number, negate)
            }
            term = scaled
        }
        let (result, overflow) = total.addingReportingOverflow(term)
        guard !overflow else { return approximate(number, negate) }
        state = .exact(significand: result, scale: common)
    }

    private mutating func approximate(_ number: JSONNumber, _ negate: Bool) {
        let before: Double
        switch state {
        case .approximate(let double): before = double
        case .exact: before = Double(value.text) ?? 0
        }
        state = .approximate(before + (negate ? -number.doubleValue : number.doubleValue))
    }

    /// `value` × 10^`places`, if it fits.
    private static func scaled(_ value: Int128, by places: Int) -> Int128? {
        var value = value
        for _ in 0..<places {
            let (product, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            value = product
        }
        return value
    }

    /// A number's text as an integer and its decimal places (`-1.25e1` is -125 and 1), if
    /// it fits in 38 digits.
    private static func decimal(_ text: String) -> (Int128, Int)? {
        var significand: Int128 = 0
        var places = 0
        var exponent = 0
        var negative = false
        var inFraction = false
        var digits = 0
        var bytes = text.utf8[...]
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                inFraction = true
                continue
            }
            if significand != 0 || byte != UInt8(ascii: "0") { digits += 1 }
            guard digits <= 38 else { return nil }
            significand = significand * 10 + Int128(byte - UInt8(ascii: "0"))
            if inFraction { places += 1 }
        }
        if !bytes.isEmpty {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            for byte in bytes {
                exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                guard exponent <= 76 else { return significand == 0 ? (0, 0) : nil }
            }
            if exponentNegative { exponent = -exponent }
        }
        places -= exponent
        if places < 0 {
            guard let scaled = scaled(significand, by: -places) else { return nil }
            (significand, places) = (scaled, 0)
        }
        guard places <= 38 else { return significand == 0 ? (0, 0) : nil }
        return (negative ? -significand : significand, places)
    }
}
