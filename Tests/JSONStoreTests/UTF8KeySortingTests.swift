import Testing

@testable import JSONStore

/// The listing's sort: by bytes, exactly as `sorted(by: UTF8Key.less)`, for many strings.
@Suite("Sorting ids by their bytes")
struct UTF8KeySortingTests {
    @Test("the fast sort orders as the byte comparison does: prefixes, twins, non-ASCII")
    func sameOrder() {
        var random = SystemRandomNumberGenerator()
        let pieces = [
            "item-", "0", "00", "1", "é", "e\u{301}", "Z", "~", "日本", "", "-", "\u{10FFFF}",
            "\u{0}",
        ]
        for count in [0, 1, 65, 500, 5_000, 20_000] {
            let strings = (0..<count).map { _ in
                (0..<Int.random(in: 0...5, using: &random)).map { _ in
                    pieces.randomElement(using: &random)!
                }.joined()
            }
            // With no prefix in common, and with one as long as the sort's first digit,
            // its two digits (sixteen bytes, past which strings are compared), and longer.
            for shared in ["", "item-000", "item-000-item-00", "item-000-item-000"] {
                let named = strings.map { shared + $0 } + (count > 0 ? [shared] : [])
                #expect(
                    UTF8Key.sorted(named).map { Array($0.utf8) }
                        == named.sorted(by: UTF8Key.less).map { Array($0.utf8) })
            }
        }
    }

    @Test("a digit of the sort takes 24 bytes: a million ids' digits and scratch, 48 MB")
    func digitSize() {
        #expect(MemoryLayout<UTF8Key.Digit>.stride == 24)
    }

    @Test("a directory's numbered ids, in the order a listing gives them, twins included")
    func numbered() {
        var random = SystemRandomNumberGenerator()
        var names: [String] = (0..<30_000).map { (k: Int) -> String in
            "item-" + String(100_000 + k * 7 % 30_011)
        }
        names += (0..<3_000).map { (k: Int) -> String in "item-" + String(k * 13) + ".bak" }
        names += ["item-1", "item-1"]
        let listed = names.shuffled(using: &random)
        #expect(
            UTF8Key.sorted(listed).map { Array($0.utf8) }
                == listed.sorted(by: UTF8Key.less).map { Array($0.utf8) })
    }
}
