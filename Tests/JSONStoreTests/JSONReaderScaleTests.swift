import JSONStore
import TestSupport
import Testing

/// The reader is linear in the length of every array and object: each size here is one
/// that a reader copying a container on every append cannot finish within the limit
/// (64,000 elements took 22 s that way, and time grows with the square of the length:
/// 300,000 would take about 8 minutes, 1,000,000 over an hour). The limit, 3 minutes,
/// leaves a linear reader room for a machine five times slower than a quiet one (a
/// debug build beside the full suite and a CPU hog took up to 116 s).
///
/// Each reads on a thread of its own and the suite runs one test at a time, so these
/// seconds of parsing never hold the threads that the rest of the suite's async tests need.
@Suite("JSON reader at scale", .serialized, .timeLimit(.minutes(3)))
struct JSONReaderScaleTests {
    @Test("an array of 1,000,000 numbers")
    func longArray() async throws {
        let text = "[" + (0..<1_000_000).map(String.init).joined(separator: ",") + "]"
        let elements = try #require(try await blocking { try JSONValue(parsing: text) }.arrayValue)
        #expect(elements.count == 1_000_000)
        #expect(elements[0].intValue == 0)
        #expect(elements[999_999].intValue == 999_999)
    }

    @Test("an object of 200,000 members keeps them all, in order")
    func wideObject() async throws {
        let text = "{" + (0..<200_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        let object = try #require(try await blocking { try JSONValue(parsing: text) }.objectValue)
        #expect(object.count == 200_000)
        #expect(object.members[0].key == "k0")
        #expect(object.members[199_999].key == "k199999")
        #expect(object.members[123_456].value.intValue == 123_456)
    }

    @Test("a duplicate key at the end of a 200,000-member object is found")
    func duplicateAtTheEnd() async throws {
        let text = "{" + (0..<200_000).map { "\"k\($0)\":0" }.joined(separator: ",") + ",\"k7\":1}"
        let outcome = try await blocking {
            Result { () throws(JSONSyntaxError) in try JSONValue(parsing: text) }
        }
        switch outcome {
        case .success:
            Issue.record("the duplicate key was accepted")
        case .failure(let error):
            #expect(error.kind == .duplicateKey)
            #expect(error.reason.contains("\"k7\""))
        }
    }

    @Test("an array of 300,000 small objects, each holding an array")
    func manyContainers() async throws {
        let one = #"{"id":"x","tags":["a","b"],"n":{"deep":[1,[2]]}}"#
        let text = "[" + Array(repeating: one, count: 300_000).joined(separator: ",") + "]"
        let elements = try #require(try await blocking { try JSONValue(parsing: text) }.arrayValue)
        #expect(elements.count == 300_000)
        #expect(elements.allSatisfy { $0 == elements[0] })
        #expect(elements[299_999] == ["id": "x", "tags": ["a", "b"], "n": ["deep": [1, [2]]]])
    }

    @Test("containers inside containers close into the right parent")
    func interleavedContainers() throws {
        let value = try JSONValue(
            parsing: #"[[1,2],{"a":[3,{"b":[]}],"c":{}},[],[[4]],{"d":[5,6],"e":[[7],{"f":8}]},9]"#)
        let expected: JSONValue = [
            [1, 2], ["a": [3, ["b": []]], "c": [:]], [], [[4]],
            ["d": [5, 6], "e": [[7], ["f": 8]]], 9,
        ]
        #expect(value == expected)
        #expect(value.arrayValue?[4].objectValue?.keys == ["d", "e"])
    }
}
