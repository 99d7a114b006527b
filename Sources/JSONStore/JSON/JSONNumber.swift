/// A JSON number, kept as its exact text.
///
/// Keeping the text means a file's numbers are written back as they were read (`1.0`
/// stays `1.0`, a 30-digit id is not rounded), and converting is left to the reader who
/// knows which type is wanted.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's text, valid by RFC 8259's grammar.
    public let text: String

    /// Wraps text already known to be a valid JSON number.
    init(uncheckedText text: String) {
        self.text = text
    }

    /// Creates a number from its JSON text, or returns `nil` if the text is not a valid
    /// JSON number (`01`, `1.`, `NaN`, `+1` are not).
    public init?(text: String) {
        let utf8 = Array(text.utf8)
        let length = utf8.withUnsafeBufferPointer { JSONNumber.grammarLength($0, from: 0) }
        guard !utf8.isEmpty, length == utf8.count else { return nil }
        self.text = text
    }

    public init<I: BinaryInteger>(_ value: I) {
        text = String(value)
    }

    /// Creates a number from a finite `Double`, in the shortest text that reads back as
    /// the same value (`2` rather than `2.0`).
    ///
    /// - Precondition: `value` is finite; JSON has no NaN or infinity.
    public init(_ value: Double) {
        precondition(value.isFinite, "JSON numbers must be finite, got \(value)")
        if value == value.rounded(), abs(value) < 1e15 {
            text = String(Int64(value))
        } else {
            text = "\(value)"
        }
    }

    public var description: String { text }

    /// The nearest `Double`.
    public var doubleValue: Double { Double(text) ?? .nan }

    /// The value as an `Int` if it is an integer in range (`3`, `3.0`, `3e2`), else `nil`.
    public var intValue: Int? {
        if let i = Int(text) { return i }
        guard let d = Double(text), d == d.rounded(), abs(d) < 9.007_199_254_740_992e15
        else { return nil }
        return Int(d)
    }

    /// The length of the number that starts at `start`, or the offset of its first bad byte
    /// negated minus one when the text is not a valid number.
    ///
    /// Shared by the reader and `init?(text:)` so both accept exactly RFC 8259's grammar.
    static func grammarLength(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        let n = bytes.count
        func isDigit(_ i: Int) -> Bool { i < n && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
        if i < n && bytes[i] == 0x2D { i += 1 }  // -
        guard isDigit(i) else { return -(i + 1) }
        if bytes[i] == 0x30 {
            i += 1
            if isDigit(i) { return -(i + 1) }  // leading zero
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < n && bytes[i] == 0x2E {  // .
            i += 1
            guard isDigit(i) else { return -(i + 1) }
            while isDigit(i) { i += 1 }
        }
        if i < n && (bytes[i] == 0x65 || bytes[i] == 0x45) {  // e E
            i += 1
            if i < n && (bytes[i] == 0x2B || bytes[i] == 0x2D) { i += 1 }
            guard isDigit(i) else { return -(i + 1) }
            while isDigit(i) { i += 1 }
        }
        return i - start
    }
}
