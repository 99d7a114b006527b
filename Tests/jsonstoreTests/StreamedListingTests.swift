import Foundation
import JSONStore
import TestSupport
import Testing

/// A one-shot listing in id order is written as it is read, a chunk at a time: the same
/// bytes as the listing of every item at once, in each format that streams.
@Suite("Listings written as they are read")
struct StreamedListingTests {
    @Test("json, ndjson, ids and tsv --columns over 9,000 items (three chunks) equal the whole")
    func sameBytes() async throws {
        let temp = try TemporaryStore()
        // Written directly, on a thread of its own: a batch this large would syncfs the
        // whole file system while holding one of the tests' shared threads.
        let path = temp.path
        try await blocking {
            for i in 0..<9_000 {
                _ = FileManager.default.createFile(
                    atPath: path + String(format: "/i%05d.json", i),
                    contents: Data("{\n  \"n\": \(i)\n}\n".utf8))
            }
        }
        try temp.writeFile("broken.json", "{")
        for format in ["json", "ndjson", "ids"] {
            let streamed = try await jsonstore(temp, ["list", "-o", format])
            // --sort id reads every item first: the listing as it was always made.
            let whole = try await jsonstore(temp, ["list", "-o", format, "--sort", "id"])
            #expect(streamed.stdout == whole.stdout, "\(format)")
            #expect(streamed.stderr == whole.stderr, "\(format)")
            #expect(streamed.status == 0)
        }
        let tsv = try await jsonstore(
            temp, ["list", "-o", "tsv", "--columns", "n", "--where", "n>=8990"])
        #expect(tsv.stdout == "id\tn\n" + (8990..<9000).map { "i0\($0)\t\($0)\n" }.joined())
        let warned = try await jsonstore(temp, ["list", "-o", "ids", "--where", "nothing=1"])
        #expect(
            warned.stderr.contains(
                "warning: no item has the field 'nothing' (--where); the fields are: id, n"))
    }
}
