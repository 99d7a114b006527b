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
            let pipe = ChildOutput.pipe()
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
