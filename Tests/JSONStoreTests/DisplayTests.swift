import TestSupport
import Testing

@testable import JSONStore

@Suite("Text made safe for a terminal")
struct DisplayTests {
    @Test("printable ASCII is kept as it is; every unsafe character is shown visibly")
    func boundaries() {
        #expect(Display.escaped(" ~azAZ09!") == " ~azAZ09!")
        #expect(Display.escaped("a\u{1F}b") == "a^_b")
        #expect(Display.escaped("a\u{7F}b") == "a^?b")
        #expect(Display.escaped("tab\there\nnew") == "tab\\there\\nnew")
        #expect(Display.escaped("\u{1B}[2J") == "^[[2J")
        #expect(Display.escaped("c\u{9B}d") == "c\\u{9B}d")
        #expect(Display.escaped("x\u{202E}y\u{2028}") == "x\\u{202E}y\\u{2028}")
        #expect(Display.escaped("café ☕ 日本") == "café ☕ 日本")
    }

    @Test("random text: nothing unsafe is left, and safe text is unchanged")
    func random() {
        let palette: [UInt32] = [
            0x00, 0x09, 0x1F, 0x20, 0x41, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xE9, 0x61C, 0x200E,
            0x2028, 0x202A, 0x2066, 0x2069, 0x206A, 0x1F600,
        ]
        var random = SeededRandom(seed: 11)
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<Int.random(in: 0...10, using: &random) {
                text.unicodeScalars.append(Unicode.Scalar(palette.randomElement(using: &random)!)!)
            }
            let shown = Display.escaped(text)
            #expect(!shown.unicodeScalars.contains(where: Display.isUnsafe), "\(Array(text.utf8))")
            if !text.unicodeScalars.contains(where: Display.isUnsafe) { #expect(shown == text) }
        }
    }
}
