import Testing

@testable import JSONStore

/// An item kept as its bytes: its members made on access are the ones its file holds, and
/// one member is found without reading the others, whatever surrounds it.
@Suite("Items kept as their bytes")
struct ItemBytesTests {
    static let documents = [
        #"{"title":"a","n":1}"#,
        "\u{FEFF}{ \"title\" : \"a\" ,\n\t\"n\" : -1.50e+3 }",
        #"{"nested":{"title":"inner","a":[1,{"title":"deeper"}]},"title":"outer"}"#,
        #"{"s":"a \" quote, a } and a ] and a \\","title":"after"}"#,
        #"{"ti\u0074le":"escaped key","t\"x":1,"é":true,"e\u0301":false}"#,
        #"{"a":null,"b":true,"c":false,"d":[],"e":{},"f":"","g":0,"title":[[[]]]}"#,
        "{\"s\":\"\u{2028} \u{7F} \u{202E} \\u0001 \\b\\f\\/\",\"n\":[-0.0,1e400,{\"x\":[{}]}]}",
        #"{"id":"tea","n":[ 1 , [ ] , { } ]}"#,
        #"{"n":1,"\u0069d":"tea"}"#,
        #"{"n":{"id":"inner"},"s":"\"id\""}"#,
        "{}",
        "  {\"only\":\"\"}  \n",
        // Deeper than 64 containers, objects and arrays mixed, each closed in its turn.
        "{\"deep\":" + String(repeating: "[{\"a\":", count: 40) + "1"
            + String(repeating: "}]", count: 40) + ",\"after\":[1,{\"b\":[]}]}",
    ]

    @Test(
        "every member read alone equals the reader's, and an absent one is nil",
        arguments: documents)
    func membersAlone(text: String) throws {
        let bytes = Array(text.utf8)
        let object = try #require(try JSONReader().read(bytes).objectValue)
        let kept = ItemBytes(bytes)
        #expect(kept.object == object)
        for member in object.members {
            #expect(kept.member(member.key) == member.value, "member \(member.key)")
            #expect(kept.hasMember(member.key))
        }
        for absent in ["absent", "Title", "titl", "title2", ""] where object[absent] == nil {
            #expect(kept.member(absent) == nil, "absent \(absent)")
            #expect(!kept.hasMember(absent))
        }
    }

    @Test("names compare by their bytes: a decomposed é is another member, an escape is not")
    func namesByBytes() throws {
        let kept = ItemBytes(Array(#"{"ti\u0074le":"x","é":1,"e\u0301":2}"#.utf8))
        #expect(kept.member("title") == .string("x"))
        #expect(kept.member("\u{E9}") == .number(JSONNumber(1)))
        #expect(kept.member("e\u{301}") == .number(JSONNumber(2)))
    }

    @Test("an item is written from its bytes as from its object", arguments: documents)
    func rewrite(text: String) throws {
        let bytes = Array(text.utf8)
        for id in ["tea", "a\u{2028}b\u{1}"] {
            try rewriteProperty(
                Item(id: id, bytes: ItemBytes(bytes), fingerprint: Fingerprint(bytes)))
        }
    }

    @Test("an item from a file keeps its bytes; id, object and subscript are made from them")
    func itemFromFile() throws {
        let text = "{\n  \"title\": \"Water\",\n  \"tags\": [\"home\"]\n}\n"
        let outcome = ItemFile.parse(
            Array(text.utf8), id: "tea", file: "tea.json", reader: JSONReader())
        guard case .item(let item) = outcome else {
            Issue.record("not an item: \(outcome)")
            return
        }
        #expect(item.bytes.array == Array(text.utf8))
        #expect(item["title"] == .string("Water"))
        #expect(item["id"] == .string("tea"))
        #expect(item["tags"] == .array([.string("home")]))
        #expect(item["missing"] == nil)
        #expect(item.members.keys == ["title", "tags"])
        #expect(item.object.keys == ["id", "title", "tags"])
    }

    @Test("items are equal by value: the same members in other bytes, not other members")
    func equality() {
        let fingerprint = Fingerprint(Array("same".utf8))
        func item(_ text: String) -> Item {
            Item(id: "a", bytes: ItemBytes(Array(text.utf8)), fingerprint: fingerprint)
        }
        #expect(item(#"{"n":1}"#) == item(#"{ "n" : 1 }"#))
        #expect(item(#"{"n":1}"#) == item(#"{"id":"a","n":1}"#))
        #expect(item(#"{"n":1}"#) != item(#"{"n":2}"#))
        #expect(item(#"{"n":1}"#) != item(#"{"n":1.0}"#))
    }

    @Test("bytes in one chunk are the same bytes; equal bytes in two chunks too")
    func sameBytes() {
        let a = ItemBytes(Array("{\"n\":1}".utf8))
        let b = ItemBytes(Array("{\"n\":1}".utf8))
        let c = ItemBytes(Array("{\"n\":2}".utf8))
        #expect(ItemBytes.same(a, a))
        #expect(ItemBytes.same(a, b))
        #expect(!ItemBytes.same(a, c))
    }

    @Test("packed items read back as they were, across chunks, a large one on its own")
    func packed() throws {
        var packer = ByteChunk.Packer(chunkSize: 64, smallest: 16)
        let texts = (0..<20).map { #"{"n":\#($0)}"# } + [String(repeating: " ", count: 40) + "{}"]
        let packed = texts.map { text in
            Array(text.utf8).withUnsafeBytes { packer.pack($0) }
        }
        for (text, bytes) in zip(texts, packed) {
            #expect(bytes.array == Array(text.utf8))
            #expect(try bytes.object == JSONReader().read(text).objectValue)
        }
        #expect(ItemBytes.same(packed[0], ItemBytes(Array(texts[0].utf8))))
        #expect(!ItemBytes.same(packed[0], packed[1]))
    }
}
