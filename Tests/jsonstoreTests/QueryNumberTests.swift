import Foundation
import TestSupport
import Testing

/// What `--where` and `--sort` compare: JSON numbers by exact value, any other text as
/// text; and the warning for an operator typed the wrong way round.
@Suite("Queries: numbers, text that only looks like one, near-miss operators")
struct QueryNumberTests {
    func store(_ items: [(String, String)]) throws -> TemporaryStore {
        let temp = try TemporaryStore()
        for (id, json) in items { try temp.writeFile("\(id).json", json) }
        return temp
    }

    func ids(_ temp: TemporaryStore, _ arguments: [String]) async throws -> [String] {
        let result = try await jsonstore(temp, ["list", "-o", "ids"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test("nan, inf, 0x10, +1 and .5 are text, never numbers: they match no number")
    func textThatLooksLikeANumber() async throws {
        let temp = try store([
            ("low", #"{"priority": 1}"#), ("high", #"{"priority": 1e300}"#),
            ("word", #"{"priority": "medium"}"#),
        ])
        for text in ["nan", "NaN", "inf", "infinity", "0x10", "+1", ".5", "1.", "01"] {
            for op in ["<=", ">=", "<", ">", "="] {
                let matched = try await ids(temp, ["--where", "priority\(op)\(text)"])
                #expect(!matched.contains("low") && !matched.contains("high"), "\(op)\(text)")
            }
        }
        // As text they compare with strings, by bytes: "medium" < "nan".
        #expect(try await ids(temp, ["--where", "priority<=nan"]) == ["word"])
    }

    @Test("numbers compare exactly in --where and --sort, beyond a double's precision")
    func exactNumbers() async throws {
        let temp = try store([
            ("a", #"{"n": 9007199254740993}"#), ("b", #"{"n": 9007199254740992}"#),
            ("c", #"{"n": 9007199254740992.5}"#), ("d", #"{"n": 2.0}"#), ("e", #"{"n": 2}"#),
        ])
        #expect(try await ids(temp, ["--where", "n=9007199254740993"]) == ["a"])
        #expect(try await ids(temp, ["--where", "n>9007199254740992"]) == ["a", "c"])
        #expect(try await ids(temp, ["--where", "n=2"]) == ["d", "e"])
        #expect(try await ids(temp, ["--where", "n=20e-1"]) == ["d", "e"])
        #expect(try await ids(temp, ["--sort", "n"]) == ["d", "e", "b", "c", "a"])
        #expect(try await ids(temp, ["--sort", "-n"]) == ["a", "c", "b", "d", "e"])  // ties by id
    }

    @Test("=>, =< and == get a warning that names the operator meant")
    func nearMissOperators() async throws {
        let temp = try store([("a", #"{"priority": 3, "status": "done"}"#)])
        for (typed, meant) in [
            ("priority=>2", "priority>=2"), ("priority=<2", "priority<=2"),
            ("status==done", "status=done"),
        ] {
            let result = try await jsonstore(temp, ["list", "--where", typed])
            #expect(result.stderr.contains("did you mean \(meant)?"), "\(typed): \(result.stderr)")
        }
        let plain = try await jsonstore(temp, ["list", "--where", "priority>=2"])
        #expect(plain.stderr == "")
    }

    @Test("~ lower-cases both sides character by character, as the README says")
    func containsCase() async throws {
        let temp = try store([
            ("street", #"{"title": "Straße"}"#), ("sofia", #"{"title": "σοφια"}"#),
            ("odos", #"{"title": "οδος"}"#), ("n", #"{"title": 1234}"#),
        ])
        #expect(try await ids(temp, ["--where", "title~STRASSE"]) == [])
        #expect(try await ids(temp, ["--where", "title~STRAßE"]) == ["street"])
        #expect(try await ids(temp, ["--where", "title~ΣΟΦΙΑ"]) == ["sofia"])
        // Final sigma is its own letter to lower-casing: ΟΔΟΣ lower-cases to οδοσ.
        #expect(try await ids(temp, ["--where", "title~ΟΔΟΣ"]) == [])
        #expect(try await ids(temp, ["--where", "title~23"]) == ["n"])
    }
}
