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

    @Test("a heading upper-cases the printable text and keeps every escape as it is")
    func headings() {
        #expect(Display.heading("title") == "TITLE")
        #expect(Display.heading("\u{1B}[31mred") == "^[[31MRED")
        #expect(Display.heading("a\u{9B}b") == "A\\u{9B}B")  // not \U{9B}
        #expect(Display.heading("x\ny\tz") == "X\\nY\\tZ")  // not \N, \T
        #expect(Display.heading("\u{202E}straße") == "\\u{202E}STRASSE")
        for scalar in terminalUnsafeScalars {
            let shown = Display.heading("a\(Character(scalar))b")
            #expect(!shown.unicodeScalars.contains(where: Display.isUnsafe))
            #expect(shown == "A" + Display.escaped(String(Character(scalar))) + "B")
        }
    }

    @Test("a name that is not UTF-8 shows each bad byte as \\xNN, and a backslash doubled")
    func bytes() {
        #expect(Display.bytes([0x80] + Array("abc.json".utf8)) == "\\x80abc.json")
        #expect(Display.bytes(Array("caf".utf8) + [0xC3, 0xA9, 0xFF]) == "café\\xff")
        #expect(Display.bytes([0xE2, 0x82]) == "\\xe2\\x82")  // a sequence cut short
        #expect(Display.bytes(Array("\\x80".utf8) + [0x80]) == "\\\\x80\\x80")
        #expect(Display.bytes([0x1B, 0x5B, 0x32, 0x4A, 0xFF]) == "^[[2J\\xff")
    }
}
