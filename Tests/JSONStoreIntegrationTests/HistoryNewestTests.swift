import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// The store's history with a limit, read back from the journal's newest segment only as
/// far as the entries asked for reach (`Journal.newest`).
@Suite("History: the newest entries of a journal of many segments")
struct HistoryNewestTests {
    @Test("a limit after a revision gives what a read of the whole journal gives")
    func newestFirst() throws {
        var options = JSONStore.Options()
        options.journalSegmentLimit = 8 << 10
        let temp = try TemporaryStore(options: options)
        for round in 0..<10 {
            try temp.store.write { tx in
                for i in 0..<40 { try tx.put("item-\(i)", ["round": .number(JSONNumber(round))]) }
            }
        }
        let journal = try #require(temp.store.history).journal
        #expect(journal.segments().count > 4)
        // The reference: every entry, read oldest first.
        var whole: [HistoryEntry] = []
        _ = journal.read { whole.append($0) }
        whole.reverse()
        #expect(whole.map(\.revision) == Array((1...400).reversed()))
        #expect(try temp.store.history().map(\.revision) == whole.map(\.revision))
        for limit in [0, 1, 39, 40, 41, 150, 399, 400, 401] {
            for after in [0, 1, 100, 255, 399, 400, 500] {
                let expected = whole.filter { $0.revision > after }.prefix(limit)
                let got = try temp.store.history(after: after, limit: limit)
                #expect(
                    got.map(\.revision) == expected.map(\.revision), "limit \(limit) after \(after)"
                )
                #expect(got.map(\.id) == expected.map(\.id))
            }
        }
        #expect(
            try temp.store.history(limit: 1).first?.changes == [
                MemberChange(path: "/round", old: 8, new: 9)
            ])
    }
}
