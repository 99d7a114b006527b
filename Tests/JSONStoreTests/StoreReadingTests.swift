import TestSupport
import Testing

@testable import JSONStore

@Suite("Reading a store")
struct StoreReadingTests {
    @Test("items load sorted; ignored names are skipped; the id is filled in")
    func loadsAndIgnores() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("b.json", "{\"title\": \"B\"}")
        try temp.writeFile("a.json", "{\"id\": \"a\", \"title\": \"A\"}")
        for ignored in [
            "notes.txt", ".hidden.json", "b.json~", "4913", ".#b.json", "b.json___jb_tmp___",
            ".jsonstore.lock",
        ] {
            try temp.writeFile(ignored, "not json")
        }
        let contents = try temp.store.load()
        #expect(contents.items.map(\.id) == ["a", "b"])
        #expect(contents.invalid.isEmpty)
        #expect(contents.items[1].object.keys == ["id", "title"])
        #expect(contents.items[0].object.keys == ["id", "title"])
    }

    @Test("a directory listed twice through one descriptor gives every name both times")
    func listedTwice() throws {
        let temp = try TemporaryStore()
        for name in ["a", "b", "c"] { try temp.writeFile("\(name).json", "{}") }
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        // Each listing reads a copy of the descriptor, which shares its offset.
        let first = try StoreListing(scanning: dir, path: temp.path).ids
        let second = try StoreListing(scanning: dir, path: temp.path).ids
        #expect(first == ["a", "b", "c"])
        #expect(second == first)
    }

    @Test("invalid files are reported with file, line, column and reason; the rest load")
    func reportsInvalid() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("good.json", "{}")
        try temp.writeFile("syntax.json", "{\n  \"a\": 1,\n  \"b\": tru\n}")
        try temp.writeFile("array.json", "[1, 2]")
        try temp.writeFile("mismatch.json", "{\"id\": \"other\"}")
        try temp.writeFile("numeric-id.json", "{\"id\": 7}")
        let contents = try temp.store.load()
        #expect(contents.items.map(\.id) == ["good"])
        let byName = Dictionary(uniqueKeysWithValues: contents.invalid.map { ($0.name, $0.error) })
        #expect(byName.count == 4)
        #expect(
            byName["syntax.json"]
                == StoreError(
                    code: .invalidJSON, message: "invalid literal, expected 'true'",
                    file: "\(temp.path)/syntax.json", id: "syntax", line: 3, column: 8))
        #expect(
            byName["array.json"]?.message
                == "an item file must hold a JSON object, this one holds an array")
        #expect(byName["mismatch.json"]?.code == .invalidItem)
        #expect(byName["mismatch.json"]?.message.contains("\"other\"") == true)
        #expect(byName["numeric-id.json"]?.code == .invalidItem)
    }

    @Test("a large store loads in parallel with the same result as one by one")
    func parallelLoad() throws {
        var serial = JSONStore.Options()
        serial.parallelLoadThreshold = .max
        let temp = try TemporaryStore()
        for i in 0..<500 {
            try temp.writeFile("item-\(i).json", i % 50 == 7 ? "{oops" : "{\"n\": \(i)}")
        }
        let parallel = try temp.store.load()
        let oneByOne = try JSONStore(directory: temp.path, options: serial).load()
        #expect(parallel.items.count == 490)
        #expect(parallel.invalid.count == 10)
        #expect(parallel.items == oneByOne.items)
        #expect(parallel.invalid.map(\.name) == oneByOne.invalid.map(\.name))
    }

    @Test("createDirectory makes a missing store directory and opens an existing one")
    func createsDirectory() throws {
        let temp = try TemporaryStore()
        var options = JSONStore.Options()
        options.createDirectory = true
        let made = try JSONStore(directory: temp.path + "/new", options: options)
        try made.put("tea", ["title": "Tea"])
        #expect(try JSONStore(directory: temp.path + "/new", options: options).item("tea") != nil)
        do {
            _ = try JSONStore(directory: temp.path + "/none/new", options: options)
            Issue.record("created a directory whose parent is missing")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.message.starts(with: "could not create the store directory"))
        }
        try temp.writeFile("file", "")
        do {
            _ = try JSONStore(directory: temp.path + "/file", options: options)
            Issue.record("opened a file as a store directory")
        } catch {
            #expect(error.code == .storeUnavailable)
        }
    }

    @Test("item(_:) returns nil for a missing item and throws for an invalid one")
    func singleItem() throws {
        let temp = try TemporaryStore()
        #expect(try temp.store.item("nope") == nil)
        try temp.writeFile("bad.json", "")
        do {
            _ = try temp.store.item("bad")
            Issue.record("read an empty file as an item")
        } catch {
            #expect(error.code == .invalidJSON)
            #expect(error.message.contains("empty"))
        }
    }

    @Test("fingerprints tell contents apart and match for equal bytes")
    func fingerprints() {
        let a = Fingerprint(Array("{\"x\": 1}\n".utf8))
        #expect(a == Fingerprint(Array("{\"x\": 1}\n".utf8)))
        #expect(a != Fingerprint(Array("{\"x\": 2}\n".utf8)))
        #expect(Fingerprint(Array("abcdefgh1".utf8)) != Fingerprint(Array("abcdefgh2".utf8)))
        #expect(Fingerprint([]) != Fingerprint([0]))
    }
}
