import Foundation
import JSONStore
import TestSupport
import Testing

/// `list --follow --throttle` and `--coalesce` through the built binary.
@Suite("Delivery policies on the command line")
struct FollowPolicyTests {
    @Test("--throttle and --coalesce: their values, and only with --follow")
    func usage() async throws {
        let temp = try sampleStore()
        for arguments in [
            ["list", "--throttle", "1"], ["list", "--follow", "--throttle", "0"],
            ["list", "--follow", "--coalesce", "0.1,0.05"],
            ["list", "--follow", "--coalesce", "x"],
            ["list", "--follow", "--throttle", "1", "--coalesce", "1"], ["list", "--fields", "a"],
            ["list", "--follow", "--fields", ","],
        ] {
            let result = try await jsonstore(temp, arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
    }

    @Test("--fields: an edit of another member brings no event; the next one is current")
    func fields() async throws {
        let temp = try sampleStore()
        let running = try JSONStoreBinary.start([
            "--dir", temp.path, "list", "--follow", "--json", "--bookmarks", "0", "--fields",
            "status",
        ])
        _ = try #require(try await blocking { running.reader.next(within: 20) })
        try temp.store.update("tea") { $0["title"] = "Make green tea" }
        try temp.store.update("tea") { $0["status"] = "done" }
        let line = try #require(try await blocking { running.reader.next(within: 20) })
        let event = try JSONValue(parsing: line)
        #expect(event["event"] == "update")
        let tea = try #require(event["modified"]?.arrayValue?.first)
        #expect(tea["title"] == "Make green tea" && tea["status"] == "done")
        // The title's edit was no update of its own: the first one has the status's change.
        let paths = event["patches"]?.arrayValue?.first?.arrayValue?.compactMap {
            $0["path"]?.stringValue
        }
        #expect(paths?.contains("/status") == true, "\(line)")
    }

    @Test("--throttle: the stream's updates at most one an interval, the last state in them")
    func throttledStream() async throws {
        let temp = try sampleStore()
        let running = try JSONStoreBinary.start([
            "--dir", temp.path, "list", "--follow", "--json", "--bookmarks", "0", "--throttle",
            "0.5",
        ])
        let mirror = NDJSONMirror()
        mirror.apply(try #require(try await blocking { running.reader.next(within: 20) }))
        let store = temp.store
        let elapsed = try await blocking {
            let start = Date()
            for i in 0..<30 { try store.put("item-\(i)", ["n": .number(JSONNumber(i))]) }
            return Date().timeIntervalSince(start)
        }
        var updates = 0
        while mirror.items.count < 33 {
            guard let line = try await blocking({ running.reader.next(within: 20) }) else { break }
            if line.contains(#""event":"update""#) { updates += 1 }
            mirror.apply(line)
        }
        #expect(mirror.items.count == 33)
        // However slowly the puts went, at most one update every half second (and one more).
        #expect(updates <= Int(elapsed / 0.5) + 2, "\(updates) updates in \(elapsed) s")
    }
}
