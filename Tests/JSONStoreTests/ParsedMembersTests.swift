import Foundation
import Testing

@testable import JSONStore

/// Items' members made once within one change of the store (`ParsedMembers`): the same
/// members as made afresh, at most `capacity` kept, on the thread that asked only.
@Suite("Members made once per change")
struct ParsedMembersTests {
    static func bytes(_ n: Int) -> ItemBytes {
        ItemBytes(Array(#"{"n":\#(n),"tags":["a","b"],"owner":{"name":"ann"}}"#.utf8))
    }

    @Test("within a change: each item's own members, kept once, at most capacity of them")
    func kept() {
        let items = (0..<(ParsedMembers.capacity + 6)).map(Self.bytes)
        #expect(ParsedMembers.current == nil)
        ParsedMembers.keeping {
            guard let memo = ParsedMembers.current else {
                Issue.record("no members kept within keeping")
                return
            }
            for (n, bytes) in items.enumerated() {
                // Asked twice: the same members as made afresh outside, every time.
                #expect(bytes.object["n"] == .number(JSONNumber(n)))
                #expect(bytes.object == ParsedMembers.$current.withValue(nil) { bytes.object })
            }
            #expect(memo.count == ParsedMembers.capacity)
            // Equal bytes in another chunk are another item's, made on their own.
            let again = Self.bytes(0)
            #expect(again.object["n"] == .number(JSONNumber(0)))
            #expect(memo.count == ParsedMembers.capacity)
        }
        #expect(ParsedMembers.current == nil)
    }

    @Test("another thread keeps nothing of this one's change")
    func threads() {
        ParsedMembers.keeping {
            #expect(ParsedMembers.current != nil)
            let seen = Locked<Bool?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                seen.withLock { $0 = ParsedMembers.current != nil }
                done.signal()
            }.start()
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(seen.withLock { $0 } == false)
        }
    }
}
