import TestSupport
import Testing

@testable import JSONStore

/// The ECMA-262 patterns `pattern` uses: searched anywhere, by code point, bounded.
@Suite("ECMA-262 patterns")
struct ECMARegexTests {
    func matches(_ pattern: String, _ text: String) throws -> Bool? {
        try ECMARegex(pattern).firstMatch(in: text)
    }

    @Test(
        "what matches and what does not",
        arguments: [
            ("^a+b$", "aaab", true), ("^a+b$", "aaa", false), ("b", "abc", true),
            ("^[a-c]{2,3}$", "abc", true), ("^[a-c]{2,3}$", "abcd", false),
            ("^(?:ab|cd)*$", "abcdab", true), ("^(?:ab|cd)*$", "abc", false),
            ("^a*?b", "aab", true), ("^\\d{3}-\\w+$", "123-abc_9", true),
            ("^\\d$", "٣", false),  // \d is ASCII only
            ("^\\s$", "\u{00A0}", true), ("^.$", "\n", false), ("^.$", "😀", true),
            ("^[^a-z]$", "A", true), ("^[^a-z]$", "q", false),
            ("^(a)\\1$", "aa", true), ("^(a)\\1$", "ab", false),
            ("^(?<x>[ab])\\k<x>$", "bb", true), ("\\bcat\\b", "a cat here", true),
            ("\\bcat\\b", "concatenate", false), ("^(?=.*\\d)[a-z\\d]+$", "abc1", true),
            ("^(?=.*\\d)[a-z\\d]+$", "abc", false), ("^(?!foo).*$", "food", false),
            ("(?<=\\$)\\d+", "cost $42", true), ("(?<!\\$)\\b\\d+", "$42", false),
            ("^\\p{L}+$", "Ωmega", true), ("^\\p{Lu}", "ωmega", false), ("^\\P{L}$", "1", true),
            ("^[\\p{Nd}x]+$", "x٣1", true), ("^\\u{1F600}$", "😀", true), ("^\\u0041$", "A", true),
            ("^\\ud83d\\ude00$", "😀", true), ("^(a*)*$", "aaaa", true), ("^(a*)*$", "aaab", false),
            ("^[\\D]$", "x", true), ("^[\\D]$", "5", false), ("^a{0}$", "", true),
            ("^\\p{White_Space}\\p{Alpha}$", " é", true), ("^\\p{Emoji}$", "a", false),
            ("^\\cJ$", "\n", true), ("^[\\b]$", "\u{8}", true), ("^x\\/y$", "x/y", true),
        ])
    func cases(pattern: String, text: String, expected: Bool) throws {
        #expect(try matches(pattern, text) == expected, "\(pattern) on \(text)")
    }

    @Test(
        "a pattern that does not compile says why, and where",
        arguments: [
            ("a)", "unbalanced )"), ("(a", "not closed"), ("[a", "not closed"),
            ("*a", "nothing to repeat"),
            ("a{2,1}", "out of order"), ("\\a", "is not an escape"), ("[z-a]", "out of order"),
            ("\\p{Nope}", "names no Unicode property"),
            ("\\p{Script=Greek}", "scripts are not supported"),
            ("\\2(a)", "names no group"), ("\\k<n>", "names no group"),
            ("(?<n>a)(?<n>b)", "used twice"),
            ("a{", "escape it as"), ("(?<=a)+", "nothing to repeat"),
        ])
    func refusals(pattern: String, reason: String) {
        #expect(throws: RegexError.self) { try ECMARegex(pattern) }
        do {
            _ = try ECMARegex(pattern)
        } catch {
            #expect(error.reason.contains(reason), "\(pattern): \(error.reason)")
            #expect(
                error.reason.contains("at character") || reason.contains("group"), "\(error.reason)"
            )
        }
    }

    @Test("a catastrophic pattern gives up within its step limit instead of running for ever")
    func bounded() throws {
        let regex = try ECMARegex("^(a+)+$")
        let text = String(repeating: "a", count: 40) + "b"
        // 2^40 paths: without the step limit this search would run for days.
        #expect(regex.firstMatch(in: text, stepLimit: 100_000) == .some(nil))
        #expect(regex.firstMatch(in: String(repeating: "a", count: 40)) == true)
    }

    @Test("a long text is searched without recursion: a million code points")
    func longText() throws {
        let text = String(repeating: "ab", count: 500_000) + "c"
        #expect(try ECMARegex("(?:ab)*c$").firstMatch(in: text, stepLimit: 50_000_000) == true)
        #expect(try ECMARegex("^[ab]*$").firstMatch(in: text, stepLimit: 50_000_000) == false)
    }

    @Test("a run of sets matched in one pass agrees with the machine on 20,000 strings")
    func runAgreesWithMachine() throws {
        let runs = [
            "^[a-z0-9]+$", "^[0-9]{4}-[0-9]{2}-[0-9]{2}T", "^#[0-9a-f]{6}$", "^a*b", "^[ab]{2,3}$",
            "^x?[0-9]*$", "^", "^$", "^.{0,3}$", "^[^#]", "^é+[a-z]*",
        ]
        let machineOnly = ["^[a-z]*[a-c]$", "^(ab)+$", "[0-9]+", "^a|b$", "^[^a]*a"]
        var random = SeededRandom(seed: 27)
        let alphabet = Array("ab0129Tx-#é\n")
        for source in runs + machineOnly {
            let regex = try ECMARegex(source)
            #expect(regex.isRun == runs.contains(source), "\(source)")
            for _ in 0..<(20_000 / (runs.count + machineOnly.count)) {
                let length = Int.random(in: 0...12, using: &random)
                let text = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
                #expect(
                    regex.firstMatch(in: text) == regex.search(text),
                    "\(source) on \(text.debugDescription)")
            }
        }
    }
}
