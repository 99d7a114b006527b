import Foundation
import JSONStore
import TestSupport
import Testing

/// `list --follow` piped: one plain line per change, invalid files coming and going too.
@Suite("The text change stream")
struct FollowLinesTests {
    @Test(
        "an invalid file that appears, then is removed or fixed, gets a line each time",
        .timeLimit(.minutes(1)))
    func invalidFileGoes() async throws {
        let temp = try sampleStore()
        let path = temp.path
        let lines = try await blocking { () -> [String] in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
            process.arguments = ["--dir", path, "list", "--follow", "--no-headers", "-o", "ids"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            defer { HelperProcess.stop(process) }
            let reader = LineReader(pipe)
            var seen: [String] = []
            func expect(_ line: String) {
                seen.append(
                    reader.next(until: { $0 == line }, within: 20) ?? "(timed out: \(line))")
            }
            expect("tea")  // the listing's last line
            try "{".write(toFile: path + "/junk.json", atomically: false, encoding: .utf8)
            expect(
                "INVALID junk: \(path)/junk.json:1:2: unexpected end of input, expected a string key"
            )
            try FileManager.default.removeItem(atPath: path + "/junk.json")
            expect("RESOLVED junk.json")
            try "{".write(toFile: path + "/tea.json", atomically: false, encoding: .utf8)
            expect(
                "INVALID tea: \(path)/tea.json:1:2: unexpected end of input, expected a string key")
            try #"{"title": "Tea again"}"#.write(
                toFile: path + "/tea.json", atomically: false, encoding: .utf8)
            expect("MODIFIED tea")
            return seen
        }
        #expect(!lines.contains { $0.hasPrefix("(timed out") }, "\(lines)")
    }
}

/// A one-shot listing in id order is written as it is read, a chunk at a time: the same
/// bytes as the listing of every item at once, in each format that streams.
@Suite("Listings written as they are read")
struct StreamedListingTests {
    @Test("json, ndjson, ids and tsv --columns over 9,000 items (three chunks) equal the whole")
    func sameBytes() async throws {
        let temp = try TemporaryStore()
        try temp.store.write { tx in
            for i in 0..<9_000 {
                try tx.put(String(format: "i%05d", i), ["n": .number(JSONNumber(i))])
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
