import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// Typed decoding read straight from the bytes (`JSONTape`, `TapeDecoder`) against the
/// value decoder: the same results and the same errors, on chosen types and on random
/// documents.
@Suite("Decoding from the tape")
struct TapeDecoderTests {
    struct Plan: Codable, Equatable {
        struct Step: Codable, Equatable {
            var name: String
            var minutes: Double?
        }
        enum Mode: String, Codable { case quick, slow }
        var id: String
        var mode: Mode
        var steps: [Step]
        var weights: [String: Int]
        var due: Date?
        var extra: [String: [Int?]]?
        var big: UInt64
        var small: Int8
        var nested: [[Bool?]]
    }

    /// What decoding `text` as `T` gives on the tape and through a `JSONValue`: the value
    /// or the error, told as text.
    func both<T: Decodable & Equatable>(_ type: T.Type, _ text: String) -> (String, String) {
        func told(_ body: () throws -> T) -> String {
            do { return "\(try body())" } catch { return "\(error)" }
        }
        let tape = told { try JSONValueDecoder().decode(type, fromJSON: Array(text.utf8)) }
        let value = told {
            try JSONValueDecoder().decode(type, from: try JSONReader().read(text))
        }
        return (tape, value)
    }

    @Test("a type with every kind of member decodes as through a value")
    func everyKind() throws {
        let text = #"""
            {"mode": "slow", "id": "p\u00e9", "steps": [{"name": "a"}, {"minutes": 2.5, "name": "b\n"}],
             "weights": {"x": 1, "y\u0000": -2}, "due": "2026-11-29T15:27:36Z",
             "extra": {"any": [1, 20, null]}, "big": 18446744073709551615, "small": -128,
             "nested": [[true, null], []]}
            """#
        let plan = try JSONValueDecoder().decode(Plan.self, fromJSON: Array(text.utf8))
        #expect(plan.id == "pé")
        #expect(plan.steps == [.init(name: "a"), .init(name: "b\n", minutes: 2.5)])
        #expect(plan.weights == ["x": 1, "y\u{0}": -2])
        #expect(plan.big == UInt64.max)
        #expect(plan.small == -128)
        #expect(plan.nested == [[true, nil], []])
        #expect(plan.extra == ["any": [1, 20, nil]])
        let (tape, value) = both(Plan.self, text)
        #expect(tape == value)
    }

    @Test(
        "errors are the value decoder's, coding path and all",
        arguments: [
            #"{"id": 1}"#,
            #"{"id": "x", "mode": "fast", "steps": [], "weights": {}, "big": 1, "small": 1, "nested": []}"#,
            #"{"id": "x", "mode": "slow", "steps": [{"name": 3}], "weights": {}, "big": 1, "small": 1, "nested": []}"#,
            #"{"id": "x", "mode": "slow", "steps": [], "weights": {"a": 1.5}, "big": 1, "small": 1, "nested": []}"#,
            #"{"id": "x", "mode": "slow", "steps": [], "weights": {}, "big": -1, "small": 1, "nested": []}"#,
            #"{"id": "x", "mode": "slow", "steps": [], "weights": {}, "big": 1, "small": 128, "nested": []}"#,
            #"{"id": "x", "mode": "slow", "steps": [], "weights": {}, "big": 1, "small": 1, "nested": [[1]]}"#,
            #"{"id": "x", "mode": "slow", "steps": [], "weights": {}, "big": 1, "small": 1, "nested": [], "due": "soon"}"#,
            #"[]"#,
        ])
    func errors(text: String) {
        let (tape, value) = both(Plan.self, text)
        #expect(tape == value)
        #expect(!tape.hasPrefix("Plan("))
    }

    @Test("numbers: signs, zeros, exponents and edges convert as through a value")
    func numbers() {
        for text in [
            "0", "-0", "7", "-7", "123456789012345678", "-123456789012345678",
            "1234567890123456789",
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "3e2", "2.5",
            "-0.0", "1e400", "999999999999999", "1000000000000000", "9007199254740993",
        ] {
            func agree<T: Decodable & Equatable>(_ type: T.Type) {
                let (tape, value) = both(type, text)
                #expect(tape == value, "\(type) from \(text)")
            }
            agree(Int.self)
            agree(Double.self)
            agree(UInt8.self)
            agree(Int64.self)
            agree(UInt.self)
            agree(Float.self)
        }
        let negativeZero = try? JSONValueDecoder().decode(Double.self, fromJSON: Array("-0".utf8))
        #expect(negativeZero?.sign == .minus)
    }

    @Test("an array literal is still a JSONValue, not bytes")
    func literals() throws {
        #expect(try JSONValueDecoder().decode([Int].self, from: [1, 2, 3]) == [1, 2, 3])
    }

    @Test("optional scalars of every kind, present, null and missing, decode as through a value")
    func optionalScalars() {
        struct Optionals: Decodable, Equatable {
            var b: Bool?
            var d: Double?
            var f: Float?
            var i8: Int8?
            var u16: UInt16?
            var i64: Int64?
            var u: UInt?
            var s: String?
        }
        for text in [
            #"{"b": true, "d": 2.5, "f": 1, "i8": -8, "u16": 16, "i64": 64, "u": 1, "s": "x"}"#,
            #"{"b": null, "d": null, "f": null, "i8": null, "u16": null, "i64": null, "u": null}"#,
            #"{"s": "only"}"#, #"{"u16": 70000}"#, #"{"b": 1}"#,
        ] {
            let (tape, value) = both(Optionals.self, text)
            #expect(tape == value, "\(text)")
        }
    }

    @Test("text that is not JSON throws the reader's error")
    func syntax() {
        #expect(throws: JSONSyntaxError.self) {
            try JSONValueDecoder().decode([Int].self, fromJSON: Array("[1,]".utf8))
        }
        do {
            _ = try JSONValueDecoder().decode(
                [String: Int].self, fromJSON: Array(#"{"a": 1, "a": 2}"#.utf8))
            Issue.record("a duplicate key decoded")
        } catch let error as JSONSyntaxError {
            #expect(error.kind == .duplicateKey)
            #expect(error.column == 10)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("an item decodes from its bytes, its file's id given where it has none")
    func itemID() throws {
        struct Named: Decodable, Equatable {
            var id: String
            var title: String
        }
        for (text, id) in [
            (#"{"title": "a"}"#, "file"), (#"{"title": "a", "id": "inner"}"#, "inner"),
            (#"  {"title": "a\"b"}"#, "é \u{2028}\"x"),
        ] {
            let bytes = ItemBytes(Array(text.utf8))
            let item = Item(
                id: id == "inner" ? "file" : id, bytes: bytes, fingerprint: Fingerprint([]))
            let named = try item.decode(as: Named.self)
            #expect(named.id == id)
            #expect(
                named == (try JSONValueDecoder().decode(Named.self, from: .object(item.object))))
        }
        let empty = Item(id: "e", bytes: ItemBytes(Array("{}".utf8)), fingerprint: Fingerprint([]))
        #expect(try empty.decode(as: [String: String].self) == ["id": "e"])
    }

    @Test("random documents and their one-byte corruptions: the tape agrees with the reader")
    func randomDocuments() {
        var random = SeededRandom(seed: 28)
        let reader = JSONReader(maxDepth: 16, maxSize: 1 << 20)
        for run in 0..<3_000 {
            let value = RandomJSON.value(depth: 4, using: &random)
            var bytes = run % 2 == 0 ? JSONWriter.compact(value) : JSONWriter.pretty(value)
            if run % 3 == 2, !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes[at] =
                    [0x22, 0x5C, 0x2C, 0x7D, 0x5D, 0x30, 0x2D, 0xFF, 0x0A, 0x20][
                        Int.random(in: 0..<10, using: &random)]
            }
            let failure = FuzzCorpusTests.failure(bytes) { buffer throws(PropertyFailure) in
                try tapeProperty(buffer, reader: reader)
            }
            #expect(
                failure == nil,
                "run \(run): \(String(decoding: bytes, as: UTF8.self)): \(failure ?? "")")
        }
    }
}

/// Random JSON values whose keys and strings need escapes, whose numbers take every form
/// of the grammar, and whose objects are sometimes large enough to check their keys by a
/// set.
enum RandomJSON {
    static let texts = [
        "", "a", "é", "\u{0}", "\"", "\\", "a\nb", "ab", "😀", "id", "\u{2028}", "k1",
    ]
    static let numbers = [
        "0", "-0", "1", "-12", "3.25", "1e3", "-2E-2", "123456789012345678901234",
    ]

    static func value(depth: Int, using random: inout SeededRandom) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2, 3: return .string(text(using: &random))
        case 4, 5: return .number(JSONNumber(text: numbers.randomElement(using: &random)!)!)
        case 6, 7:
            var object = JSONObject()
            let large = Int.random(in: 0..<4, using: &random) == 0
            for _ in 0..<Int.random(in: 0...(large ? 24 : 5), using: &random) {
                object[text(using: &random)] = value(depth: depth - 1, using: &random)
            }
            return .object(object)
        default:
            return .array(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    value(depth: depth - 1, using: &random)
                })
        }
    }

    static func text(using random: inout SeededRandom) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in texts.randomElement(using: &random)!
        }
        .joined()
    }
}
