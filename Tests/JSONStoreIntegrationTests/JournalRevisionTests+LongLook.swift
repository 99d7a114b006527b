import Dispatch
import Foundation
import TestSupport
import Testing

@testable import JSONStore

extension JournalRevisionTests {
    @Test(
        "a first look with more to record than a stamp's wait allows: its version goes at once",
        arguments: [2, StoreHistory.longLookAbove])
    func longFirstLook(longAbove: Int) async throws {
        var options = JSONStore.Options()
        options.historyLongLookAbove = longAbove
        let temp = try TemporaryStore(options: options)
        // Three files no journal has recorded: the first look records all three.
        for id in ["a", "b", "c"] { try temp.writeFile("\(id).json", #"{"title": "\#(id)"}"#) }
        let recorder = ChangeRecorder()
        let token = temp.store.observe(
            since: .now, on: DispatchQueue(label: "long"), recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        let first = recorder.current.results
        #expect(first.map(\.id) == ["a", "b", "c"])
        if longAbove < 3 {
            // Sent before the look ended: with this follower's token, not the journal's.
            #expect(first.revision.token.contains(":"), "\(first.revision)")
        } else {
            #expect(
                first.revision.token.wholeMatch(of: /3@[0-9a-f]{16}/) != nil, "\(first.revision)")
        }
        // The versions after it wait for their stamps as ever.
        try temp.store.put("d", ["title": "d"])
        #expect(await recorder.wait { $0.results.count == 4 })
        let next = recorder.current.results.revision
        #expect(next.token.wholeMatch(of: /4@[0-9a-f]{16}/) != nil, "\(next)")
    }
}
