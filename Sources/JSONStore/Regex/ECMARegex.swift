/// An ECMA-262 regular expression, as JSON Schema's `pattern`, `patternProperties` and
/// the `regex` format read one: compiled once, searched for anywhere in a string (not
/// anchored unless it says `^`), by code point (the `u` flag).
///
/// A search is bounded: it counts the machine's steps and gives up past `stepLimit`
/// (a catastrophic pattern such as `^(a+)+$` on 30 `a`s and a `b`), returning `nil`.
struct ECMARegex: Sendable {
    let source: String
    private let program: RegexProgram
    /// The same pattern as a run matched in one pass, when it is one (`RegexRun`).
    private let run: RegexRun?

    /// The most steps one search may take: a few milliseconds of work.
    static let stepLimit = 1_000_000

    init(_ source: String) throws(RegexError) {
        self.source = source
        var parser = RegexParser(source)
        let (node, groups) = try parser.parse()
        program = try RegexProgram(node, groups: groups)
        run = RegexRun(node)
    }

    /// Whether the pattern matches somewhere in `string`; `nil` when the search gave up.
    func firstMatch(in string: String, stepLimit: Int = stepLimit) -> Bool? {
        guard let run else { return search(string, stepLimit: stepLimit) }
        var copy = string
        let ascii = copy.withUTF8 { bytes in
            bytes.allSatisfy { $0 < 0x80 } ? run.matches(bytes.lazy.map { UInt32($0) }) : nil
        }
        return ascii ?? run.matches(string.unicodeScalars.map(\.value))
    }

    /// Whether the pattern is one `RegexRun` matches.
    var isRun: Bool { run != nil }

    /// The search by the backtracking machine, whatever the pattern.
    func search(_ string: String, stepLimit: Int = stepLimit) -> Bool? {
        let text = Self.codePoints(of: string)
        var machine = RegexMachine(text: text, budget: stepLimit)
        var slots = [Int](repeating: -1, count: program.slots)
        let last = program.anchored ? 0 : text.count
        do {
            for start in 0...last {
                for k in slots.indices { slots[k] = -1 }
                if try machine.run(program, at: start, slots: &slots) { return true }
            }
            return false
        } catch {
            return nil
        }
    }

    /// The code points of `string`: ASCII text (most of it) widened byte by byte, the rest
    /// decoded.
    private static func codePoints(of string: String) -> [UInt32] {
        var copy = string
        let ascii = copy.withUTF8 { bytes in
            bytes.allSatisfy { $0 < 0x80 } ? bytes.map { UInt32($0) } : nil
        }
        return ascii ?? string.unicodeScalars.map(\.value)
    }
}
