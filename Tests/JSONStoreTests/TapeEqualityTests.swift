import Testing

@testable import JSONStore

/// Two texts compared as values off their tapes (`JSONTape.sameValue`, what the reducer
/// asks of an item written anew): always what `JSONValue`'s `==` says of the values read.
@Suite("Values compared off their tapes")
struct TapeEqualityTests {
    static func same(_ a: String, _ b: String) throws -> (tapes: Bool, values: Bool) {
        let reader = JSONReader()
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        let tapes = try x.withUnsafeBufferPointer { xs in
            try y.withUnsafeBufferPointer { ys in
                try reader.tape(xs).sameValue(in: xs, as: try reader.tape(ys), in: ys)
            }
        }
        return (tapes, try reader.read(a) == reader.read(b))
    }

    @Test(
        "the same value in other whitespace or escapes; other values of every kind",
        arguments: [
            (
                #"{"a":1,"b":[true,null,"x"]}"#,
                "{ \"a\" : 1 ,\n  \"b\": [ true, null, \"x\" ] }\n", true
            ),
            (#"{"a":"A\u00e9"}"#, #"{"a":"Aé"}"#, true),
            (#"{"\u0061":1}"#, #"{"a":1}"#, true),
            (#"{"a":"x\"y"}"#, #"{"a":"x\u0022y"}"#, true),
            (#"{"a":1}"#, #"{"a":1.0}"#, false),  // numbers by their text
            (#"{"a":1,"b":2}"#, #"{"b":2,"a":1}"#, false),  // members in order
            (#"{"a":"x"}"#, #"{"a":"y"}"#, false),
            (#"{"a":"x\n"}"#, #"{"a":"x\t"}"#, false),
            (#"{"a":true}"#, #"{"a":false}"#, false),
            (#"{"a":null}"#, #"{"a":0}"#, false),
            (#"{"a":[]}"#, #"{"a":{}}"#, false),
            (#"{"a":[1,2]}"#, #"{"a":[1,2,3]}"#, false),
            (#"{"a":[[1],2]}"#, #"{"a":[[1,2]]}"#, false),  // same kinds in order, other shape
            (#"{"a":{"b":1},"c":2}"#, #"{"a":{"b":1,"c":2}}"#, false),
            (#"{"é":1}"#, "{\"e\u{301}\":1}", false),  // by bytes, as RFC 8259 compares names
        ])
    func pairs(_ a: String, _ b: String, _ expected: Bool) throws {
        let (tapes, values) = try Self.same(a, b)
        #expect(values == expected)
        #expect(tapes == values)
        #expect(try Self.same(b, a).tapes == values)
    }

    @Test("an item written anew is the same members; an edited one is not")
    func items() {
        let old = ItemBytes(Array(#"{"title":"tea","tags":["a","b"],"n":1}"#.utf8))
        let anew = ItemBytes(
            Array("{\n  \"title\": \"tea\",\n  \"tags\": [\"a\", \"b\"],\n  \"n\": 1\n}\n".utf8))
        let edited = ItemBytes(Array(#"{"title":"tea","tags":["a","b"],"n":2}"#.utf8))
        #expect(old.sameMembers(as: anew))
        #expect(!old.sameMembers(as: edited))
    }
}
