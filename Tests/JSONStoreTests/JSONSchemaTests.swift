import Testing

@testable import JSONStore

/// The validator's promises beyond the official suite: exact numbers, code points,
/// violations located in the value and in the schema, bad schemas refused with the
/// keyword that is wrong.
@Suite("JSON Schema")
struct JSONSchemaTests {
    func schema(_ text: String) throws -> JSONSchema { try JSONSchema(parsing: text) }

    func value(_ text: String) throws -> JSONValue { try JSONReader().read(text) }

    @Test("numbers are exact: multipleOf 0.01 holds for 19.99, 1.0 is an integer")
    func exactNumbers() throws {
        let cents = try schema(#"{"multipleOf": 0.01}"#)
        #expect(cents.isValid(try value("19.99")))
        #expect(cents.isValid(try value("1e300")))
        #expect(!cents.isValid(try value("19.995")))
        let integer = try schema(#"{"type": "integer"}"#)
        #expect(integer.isValid(try value("1.0")))
        #expect(integer.isValid(try value("1e2")))
        #expect(!integer.isValid(try value("1.5")))
        #expect(!integer.isValid(try value("1e-2")))
        let bound = try schema(#"{"maximum": 9007199254740992}"#)
        #expect(!bound.isValid(try value("9007199254740993")))  // equal as doubles
    }

    @Test("lengths count code points: an emoji is one")
    func codePoints() throws {
        let short = try schema(#"{"maxLength": 2}"#)
        #expect(short.isValid(.string("😀😀")))
        #expect(!short.isValid(.string("😀😀😀")))
    }

    @Test("lengths settled by the UTF-8 byte count agree with counting, at every bound")
    func lengthShortcuts() throws {
        // One to four bytes a code point: strings around each bound where the byte count
        // alone decides, and where it does not.
        let pieces = ["a", "é", "€", "😀"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let text = (0..<Int.random(in: 0...9, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            let count = text.unicodeScalars.count
            let limit = Int.random(in: 0...12, using: &generator)
            #expect(
                try schema(#"{"maxLength": \#(limit)}"#).isValid(.string(text)) == (count <= limit),
                "maxLength \(limit) on \(text)")
            #expect(
                try schema(#"{"minLength": \#(limit)}"#).isValid(.string(text)) == (count >= limit),
                "minLength \(limit) on \(text)")
        }
        let integer = try schema(#"{"type": "integer"}"#)
        for (text, whole) in [("-0", true), ("12", true), ("1E2", true), ("1E-2", false)] {
            #expect(integer.isValid(try value(text)) == whole, "\(text)")
        }
    }

    @Test("declared names match members by their bytes, however many are declared")
    func namesByBytes() throws {
        // `é` precomposed is declared; a member `e` + U+0301 is another name (RFC 8259 §8.3,
        // as the store's members are), found by a scan among few names or a hash among many.
        for extra in [0, 20] {
            let names = ["\u{E9}"] + (0..<extra).map { "n\($0)" }
            let properties = names.map { #""\#($0)": {"type": "integer"}"# }.joined(separator: ", ")
            let strict = try schema(
                #"{"properties": {\#(properties)}, "additionalProperties": false}"#)
            #expect(strict.isValid(try value(#"{"\#u{E9}": 1}"#)), "\(names.count) names")
            #expect(!strict.isValid(try value(#"{"e\#u{301}": 1}"#)), "\(names.count) names")
            let typed = try schema(#"{"properties": {\#(properties)}}"#)
            #expect(!typed.isValid(try value(#"{"\#u{E9}": "one"}"#)), "\(names.count) names")
            #expect(typed.isValid(try value(#"{"e\#u{301}": "one"}"#)), "\(names.count) names")
        }
        // unevaluatedProperties tells the two apart too.
        let unevaluated = try schema(
            #"{"properties": {"\#u{E9}": true}, "unevaluatedProperties": false}"#)
        #expect(unevaluated.isValid(try value(#"{"\#u{E9}": 1}"#)))
        #expect(!unevaluated.isValid(try value(#"{"\#u{E9}": 1, "e\#u{301}": 2}"#)))
    }

    @Test("each violation says where in the value, which keyword where in the schema, and why")
    func located() throws {
        let schema = try schema(
            #"""
            {"type": "object", "required": ["title", "status"],
             "properties": {"priority": {"type": "integer", "maximum": 5},
                            "tags": {"type": "array", "items": {"type": "string"}}},
             "additionalProperties": {"$ref": "#/$defs/short"},
             "$defs": {"short": {"type": "string", "maxLength": 3}}}
            """#)
        let violations = schema.validate(
            try value(#"{"title": "tea", "priority": 9, "tags": ["a", 2], "stauts": "done!"}"#))
        let found = Set(
            violations.map { "\($0.instancePath) \($0.keywordLocation): \($0.message)" })
        #expect(
            found == [
                " /required: the member \"status\" is missing",
                "/priority /properties/priority/maximum: 9 is greater than the maximum 5",
                "/tags/1 /properties/tags/items/type: 2 is not of type string",
                "/stauts /$defs/short/maxLength: 5 characters, more than maxLength 3",
            ], "\(violations)")
        #expect(
            violations.first { $0.instancePath == "/priority" }?.description
                == "/priority: 9 is greater than the maximum 5 (maximum at /properties/priority/maximum)"
        )
    }

    @Test(
        "a bad schema is refused, naming the keyword and the reason",
        arguments: [
            (##"{"minLength": "3"}"##, "/minLength: minLength must be a non-negative integer"),
            (##"{"type": "text"}"##, "/type: type names no JSON type"),
            (
                ##"{"properties": {"a": 3}}"##,
                "/properties/a: a schema must be an object or a boolean"
            ),
            (##"{"$ref": "other.json"}"##, "which is neither bundled nor registered"),
            (##"{"$ref": "#/$defs/none"}"##, "nothing is at /$defs/none"),
            (##"{"pattern": "(a"}"##, "/pattern: the pattern (a does not compile"),
            (##"{"$ref": "#"}"##, "refers to itself without end"),
            (
                ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}"##,
                "refers to itself without end"
            ),
            (##"{"multipleOf": 0}"##, "multipleOf must be greater than 0"),
        ])
    func refused(text: String, reason: String) throws {
        do throws(StoreError) {
            _ = try JSONSchema(parsing: text)
            Issue.record("\(text) compiled")
        } catch {
            #expect(error.code == .invalidSchema)
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test("a schema that applies itself 1,200 deep is stopped at the depth limit, not the stack")
    func deep() throws {
        var text = "true"
        for _ in 0..<600 { text = #"{"not": {"not": "# + text + "}}" }
        let value = try JSONReader(maxDepth: 2_000).read(text)
        let schema = try JSONSchema(value)
        #expect(!schema.isValid(.null))  // the applier's depth limit stops it, as a failure
        #expect(schema.validate(.null).first?.message.contains("levels deep") == true)
    }

    @Test("documents a program registers are what $refs find; nothing else is")
    func registered() throws {
        var registry = SchemaRegistry()
        try registry.register(
            try value(#"{"type": "string", "pattern": "^[0-9]{5}$"}"#),
            uri: "https://example.com/zip.json")
        let schema = try JSONSchema(
            try value(#"{"properties": {"zip": {"$ref": "https://example.com/zip.json"}}}"#),
            registry: registry)
        #expect(schema.isValid(try value(#"{"zip": "12345"}"#)))
        let violations = schema.validate(try value(#"{"zip": "1234"}"#))
        #expect(violations.map(\.keywordLocation) == ["https://example.com/zip.json#/pattern"])
        #expect(throws: StoreError.self) {
            try registry.register(.bool(true), uri: "relative.json")
        }
    }

    @Test("the 2020-12 meta-schema is bundled: schemas are checked against it")
    func metaSchema() throws {
        let meta = try schema(##"{"$ref": "https://json-schema.org/draft/2020-12/schema"}"##)
        #expect(meta.isValid(try value(#"{"type": "object", "minLength": 2}"#)))
        let bad = meta.validate(try value(#"{"type": "object", "minLength": -2, "$anchor": "1x"}"#))
        #expect(Set(bad.map(\.instancePath)) == ["/minLength", "/$anchor"], "\(bad)")
    }

    @Test("format is an annotation by default, and checked when asked")
    func format() throws {
        let text = try value(#"{"format": "date-time"}"#)
        let annotated = try JSONSchema(text)
        let asserted = try JSONSchema(text, assertingFormat: true)
        let late = JSONValue.string("2026-02-30T10:00:00Z")
        #expect(annotated.isValid(late))
        #expect(!asserted.isValid(late))
        #expect(asserted.isValid(.string("2026-12-02T10:00:60+00:00")) == false)  // not 23:59 UTC
        #expect(asserted.isValid(.string("2026-12-31T23:59:60Z")))
        #expect(
            asserted.validate(late).map(\.message) == [
                #""2026-02-30T10:00:00Z" is not a valid date-time"#
            ])
    }

    @Test("checked as text, each violation says the line and column of its value")
    func lineAndColumn() throws {
        let schema = try schema(
            #"{"properties": {"priority": {"maximum": 5}, "tags": {"items": {"type": "string"}}}}"#)
        let text = """
            {
              "title": "tea",
              "priority": 9,
              "tags": ["a",
                       2]
            }
            """
        let violations = try schema.validate(json: Array(text.utf8))
        let places = violations.map { "\($0.line ?? 0):\($0.column ?? 0) \($0.instancePath)" }
        #expect(Set(places) == ["3:15 /priority", "5:12 /tags/1"], "\(violations)")
        #expect(throws: JSONSyntaxError.self) { try schema.validate(json: Array("{".utf8)) }
    }
}
