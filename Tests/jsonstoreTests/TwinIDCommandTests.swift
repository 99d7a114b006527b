import JSONStore
import TestSupport
import Testing

/// The command treats twin ids (`café` precomposed and decomposed) as two items.
@Suite("Byte-exact ids in the command")
struct TwinIDCommandTests {
    static let composed = TwinIDs.composed
    static let decomposed = TwinIDs.decomposed

    static func bytes(_ strings: [String]) -> [[UInt8]] { TwinIDs.bytes(strings) }

    @Test("list, get, set and delete tell twin ids apart")
    func twins() async throws {
        let temp = try TemporaryStore()
        try temp.writeFile("\(Self.composed).json", "{\"title\": \"composed\"}")
        try temp.writeFile("\(Self.decomposed).json", "{\"title\": \"decomposed\"}")

        var result = try await jsonstore(temp, ["list", "--json"])
        #expect(result.status == 0)
        let listed = try JSONValue(parsing: result.stdout).arrayValue ?? []
        #expect(
            Self.bytes(listed.compactMap { $0["id"]?.stringValue })
                == Self.bytes([Self.decomposed, Self.composed]))
        #expect(listed.map { $0["title"] } == ["decomposed", "composed"])

        result = try await jsonstore(temp, ["get", Self.decomposed, "--json"])
        #expect(try JSONValue(parsing: result.stdout)["title"] == "decomposed")
        result = try await jsonstore(temp, ["set", Self.composed, "title=changed"])
        #expect(result.status == 0)
        #expect(temp.readFile("\(Self.composed).json")?.contains("changed") == true)
        #expect(temp.readFile("\(Self.decomposed).json")?.contains("decomposed") == true)

        result = try await jsonstore(temp, ["delete", Self.decomposed])
        #expect(result.status == 0)
        #expect(Self.bytes(try temp.store.load().items.map(\.id)) == Self.bytes([Self.composed]))
    }
}
