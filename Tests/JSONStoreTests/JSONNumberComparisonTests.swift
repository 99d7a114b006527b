import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// Numbers compare by their exact decimal values, checked against Foundation's `Decimal`
/// (38 digits, exact for the numbers made here) and at the edges doubles get wrong.
@Suite("Exact comparison of JSON numbers")
struct JSONNumberComparisonTests {
    func compare(_ a: String, _ b: String) -> Int {
        JSONNumber.compareValues(JSONNumber(text: a)!, JSONNumber(text: b)!)
    }

    @Test("where doubles are wrong: long integers, close fractions, huge exponents")
    func doublesWouldBeWrong() {
        #expect(compare("9007199254740993", "9007199254740992") == 1)
        #expect(compare("-9007199254740993", "-9007199254740992") == -1)
        #expect(compare("123456789012345678901234567890", "123456789012345678901234567891") == -1)
        #expect(compare("0.1", "0.10000000000000001") == -1)
        #expect(compare("1e400", "1e399") == 1)
        #expect(compare("-1e400", "1e-400") == -1)
        #expect(compare("1e-400", "0") == 1)
        #expect(compare("1e99999999999999999999", "1e99999999999999999998") == 1)
        #expect(compare("10e99999999999999999999", "1e100000000000000000000") == 0)
        #expect(compare("1e-99999999999999999999", "1e-99999999999999999998") == -1)
        #expect(compare("0.001e-99999999999999999997", "1e-100000000000000000000") == 0)
        #expect(compare("5e-99999999999999999999", "4") == -1)
        #expect(compare("-5e99999999999999999999", "4") == -1)
    }

    @Test("one value, many texts: 2, 2.0, 20e-1, 0.2E1, 2e+0; and zeros of every sign")
    func equalTexts() {
        let twos = ["2", "2.0", "20e-1", "0.2E1", "2e+0", "2.000e0", "200E-2"]
        for a in twos {
            for b in twos { #expect(compare(a, b) == 0, "\(a) \(b)") }
        }
        for zero in ["0", "-0", "0.0", "-0e5", "0E-3"] { #expect(compare(zero, "0") == 0) }
        #expect(compare("-0.0001", "0") == -1)
        #expect(JSONNumber.equalValues(JSONNumber(text: "1.50")!, JSONNumber(text: "1.5")!))
    }

    @Test("random numbers against Foundation's Decimal")
    func againstDecimal() throws {
        var random = SeededRandom(seed: 11)
        func number() -> String {
            let digits = (0..<Int.random(in: 1...20, using: &random)).map { _ in
                String(Int.random(in: 0...9, using: &random))
            }.joined()
            var integer = String(digits.drop { $0 == "0" })
            if integer.isEmpty { integer = "0" }
            var text = (Bool.random(using: &random) ? "-" : "") + integer
            if Bool.random(using: &random) {
                text += "." + String(Int.random(in: 0...999, using: &random))
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                text += "e" + String(Int.random(in: -30...30, using: &random))
            }
            return text
        }
        // A small pool, so equal values and shared prefixes come up often.
        let pool = (0..<60).map { _ in number() } + ["0", "-0", "1", "1.0", "10e-1"]
        for _ in 0..<4_000 {
            let (a, b) = (pool.randomElement(using: &random)!, pool.randomElement(using: &random)!)
            let (x, y) = (Decimal(string: a)!, Decimal(string: b)!)
            let expected = x < y ? -1 : (x > y ? 1 : 0)
            #expect(compare(a, b) == expected, "\(a) vs \(b)")
        }
    }

    @Test("Query.filter(field:equals:) and sorting compare numbers by value")
    func queries() {
        let fingerprint = Fingerprint([UInt8]())
        let items = [("a", "2.0"), ("b", "2"), ("c", "20e-1"), ("d", "9007199254740993")].map {
            Item(
                id: $0.0, object: ["n": .number(JSONNumber(text: $0.1)!)],
                fingerprint: fingerprint)
        }
        let two = Query.all.filter(field: "n", equals: .number(JSONNumber(2))).apply(to: items)
        #expect(two.map(\.id) == ["a", "b", "c"])
        let text = Query.all.filter(field: "n", equals: "9007199254740992").apply(to: items)
        #expect(text.isEmpty)
        let sorted = Query.all.sorted(by: "n", descending: true).apply(to: items)
        #expect(sorted.map(\.id) == ["d", "a", "b", "c"])
    }
}
