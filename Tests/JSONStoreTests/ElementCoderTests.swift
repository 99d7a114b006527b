import Testing

@testable import JSONStore

/// Typed elements: a decoding error names the item's place as the store names it and is
/// located in the bytes the pipeline read, never by reading the file again.
@Suite("Decoding items as a type")
struct ElementCoderTests {
    struct Task: Decodable, Sendable {
        let title: String
        let priority: Int
    }

    /// `text` parsed as the item `tea`.
    static func item(_ text: String) throws -> Item {
        guard
            case .item(let item) = ItemFile.parse(
                Array(text.utf8), id: "tea", file: "nowhere/tea.json", reader: JSONReader())
        else { throw StoreError(code: .invalidJSON, message: "not an item") }
        return item
    }

    static func error(_ item: Item, recent: RecentBytes) -> StoreError? {
        let coder = ElementCoder<Task>.decoding(
            Task.self, location: { "tasks/\($0)" }, recent: recent)
        guard case .failure(let error) = coder.decode(item) else { return nil }
        return error
    }

    @Test("located in the bytes kept, with no file to read; named as the store names it")
    func keptBytes() throws {
        // Not as jsonstore writes files, and no file at all.
        let text = "{\"title\": \"Tea\",\n   \"priority\": \"high\"}"
        let item = try Self.item(text)
        let recent = RecentBytes()
        let unkept = try #require(Self.error(item, recent: recent))
        #expect(unkept.file == "tasks/tea" && unkept.message.hasPrefix("at priority: "))
        #expect(unkept.line == nil, "no bytes to locate it in, and none read again")
        recent.keep(Array(text.utf8), as: item.fingerprint)
        let kept = try #require(Self.error(item, recent: recent))
        #expect((kept.file, kept.line, kept.column) == ("tasks/tea", 2, 16))
    }

    @Test("an item written as jsonstore writes it is located in its value written again")
    func writtenAsJSONStoreWrites() throws {
        let item = try Self.item("{\n  \"title\": \"Tea\",\n  \"priority\": \"high\"\n}\n")
        let error = try #require(Self.error(item, recent: RecentBytes()))
        #expect((error.line, error.column) == (3, 15))
    }

    @Test("the bytes kept are the newest reads, within the limit")
    func bounded() {
        let recent = RecentBytes()
        let size = RecentBytes.limit / 4
        let prints = (0..<6).map { n in
            let bytes = [UInt8](repeating: UInt8(n), count: size)
            let print = Fingerprint(bytes)
            recent.keep(bytes, as: print)
            return print
        }
        #expect(
            prints.map { recent.bytes(of: $0) != nil } == [false, false, true, true, true, true])
        let huge = [UInt8](repeating: 9, count: RecentBytes.limit + 1)
        recent.keep(huge, as: Fingerprint(huge))
        #expect(recent.bytes(of: Fingerprint(huge)) == nil && recent.bytes(of: prints[5]) != nil)
    }
}
