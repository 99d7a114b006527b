import JSONStore
import TestSupport
import Testing

/// Ids and member names are byte strings. `café` with a precomposed `é` (U+00E9) and
/// `café` with `e` + U+0301 are equal Swift strings, but two file names on Linux and two
/// member names by RFC 8259 §8.3: two items, two members.
@Suite("Byte-exact ids and keys")
struct ByteIdentityTests {
    static let composed = TwinIDs.composed
    static let decomposed = TwinIDs.decomposed

    static func bytes(_ strings: [String]) -> [[UInt8]] { TwinIDs.bytes(strings) }

    @Test("the twins are equal Swift strings but different bytes")
    func twinsDiffer() {
        #expect(Self.composed == Self.decomposed)  // why the store must not use String ==
        #expect(Array(Self.composed.utf8) != Array(Self.decomposed.utf8))
        #expect(JSONValue.string(Self.composed) != .string(Self.decomposed))
        #expect(Set([JSONValue.string(Self.composed), .string(Self.decomposed)]).count == 2)
    }

    @Test("twin keys are two members that round-trip byte for byte")
    func twinKeys() throws {
        let text = "{\n  \"\(Self.composed)\": 1,\n  \"\(Self.decomposed)\": 2\n}\n"
        let value = try JSONValue(parsing: text)
        let object = try #require(value.objectValue)
        #expect(object.count == 2)
        #expect(object[Self.composed] == 1)
        #expect(object[Self.decomposed] == 2)
        #expect(Self.bytes(object.keys) == Self.bytes([Self.composed, Self.decomposed]))
        #expect(JSONWriter.pretty(value) == Array(text.utf8))
        // Setting one twin leaves the other alone.
        var edited = object
        edited[Self.decomposed] = 3
        #expect(edited[Self.composed] == 1 && edited[Self.decomposed] == 3)
        edited[Self.composed] = nil
        #expect(Self.bytes(edited.keys) == Self.bytes([Self.decomposed]))
        // A real duplicate is still one: the same bytes twice.
        #expect(throws: JSONSyntaxError.self) {
            try JSONValue(parsing: "{\"\(Self.decomposed)\": 1, \"\(Self.decomposed)\": 2}")
        }
    }

    @Test("twin files are two items, sorted by bytes, each read and written alone")
    func twinFiles() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("\(Self.composed).json", "{\"title\": \"composed\"}")
        try temp.writeFile("\(Self.decomposed).json", "{\"title\": \"decomposed\"}")
        try temp.writeFile("Zebra.json", "{\"title\": \"Z\"}")
        try temp.writeFile("cafe.json", "{\"title\": \"plain\"}")
        let contents = try temp.store.load()
        // Bytes: "Zebra" (5A) < "cafe" < "cafe\u{301}" (65 CC 81) < "caf\u{E9}" (C3 A9).
        #expect(
            Self.bytes(contents.items.map(\.id))
                == Self.bytes(["Zebra", "cafe", Self.decomposed, Self.composed]))
        #expect(contents.items.map { $0["title"] } == ["Z", "plain", "decomposed", "composed"])
        #expect(contents.items[2] != contents.items[3])

        #expect(try temp.store.item(Self.composed)?["title"] == "composed")
        #expect(try temp.store.item(Self.decomposed)?["title"] == "decomposed")
        try temp.store.update(Self.decomposed) { $0["title"] = "edited" }
        #expect(try temp.store.item(Self.composed)?["title"] == "composed")
        #expect(try temp.store.item(Self.decomposed)?["title"] == "edited")
        // One batch that touches both twins writes both files.
        try temp.store.write { tx in
            try tx.put(Self.composed, ["title": "one"])
            try tx.put(Self.decomposed, ["title": "two"])
            #expect(try tx.item(Self.composed)?["title"] == "one")
        }
        #expect(temp.readFile("\(Self.composed).json")?.contains("one") == true)
        #expect(temp.readFile("\(Self.decomposed).json")?.contains("two") == true)
        try temp.store.delete(Self.composed)
        #expect(
            Self.bytes(try temp.store.load().items.map(\.id))
                == Self.bytes(["Zebra", "cafe", Self.decomposed]))
    }

    @Test("an \"id\" member must match the file name byte for byte")
    func idMemberBytes() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("\(Self.composed).json", "{\"id\": \"\(Self.decomposed)\"}")
        let contents = try temp.store.load()
        #expect(contents.items.isEmpty)
        #expect(contents.invalid.first?.error.code == .invalidItem)
    }

    @Test("queries sort strings by their bytes, ties by id bytes")
    func sortByBytes() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("1.json", "{\"name\": \"\(Self.composed)\"}")
        try temp.writeFile("2.json", "{\"name\": \"\(Self.decomposed)\"}")
        try temp.writeFile("3.json", "{\"name\": \"cafe\"}")
        try temp.writeFile("4.json", "{\"name\": \"\(Self.decomposed)\"}")
        let sorted = Query.all.sorted(by: "name").apply(to: try temp.store.load().items)
        #expect(sorted.map(\.id) == ["3", "2", "4", "1"])
    }
}
