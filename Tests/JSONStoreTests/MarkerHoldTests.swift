import TestSupport
import Testing

@testable import JSONStore

/// The hold on a marker file (git's lock, a batch's journal), decided from what is seen
/// and when: held while it is there, over when it goes, not waited for past the limit.
@Suite("Holding publications for a marker")
struct MarkerHoldTests {
    /// The status of a marker file made now, and of another one made after it.
    func markers() throws -> (FileStatus, FileStatus) {
        let temp = try TemporaryStore()
        try temp.writeFile("index.lock", "")
        let first = try #require(
            FileStatus.of(atPath: temp.path + "/index.lock", followingSymlinks: false))
        try temp.writeFile("index2.lock", "")
        let second = try #require(
            FileStatus.of(atPath: temp.path + "/index2.lock", followingSymlinks: false))
        return (first, second)
    }

    @Test("held while the marker is there, one look again at a time; over when it goes")
    func heldThenEnded() throws {
        let (marker, _) = try markers()
        var hold = MarkerHold()
        #expect(hold.decide(marker: nil, now: 100, limit: 60) == .free)
        #expect(hold.decide(marker: marker, now: 100, limit: 60) == .holding(recheck: true))
        #expect(hold.decide(marker: marker, now: 100.01, limit: 60) == .holding(recheck: false))
        hold.recheckScheduled = false
        #expect(hold.decide(marker: marker, now: 100.02, limit: 60) == .holding(recheck: true))
        #expect(hold.since == 100)
        #expect(hold.decide(marker: nil, now: 101, limit: 60) == .ended)
        #expect(hold.decide(marker: nil, now: 102, limit: 60) == .free)
    }

    @Test("past the limit the marker is stale: not waited for again, a new one is")
    func stale() throws {
        let (marker, newer) = try markers()
        var hold = MarkerHold()
        #expect(hold.decide(marker: marker, now: 100, limit: 2) == .holding(recheck: true))
        #expect(hold.decide(marker: marker, now: 102, limit: 2) == .stale)
        hold.recheckScheduled = false
        #expect(hold.decide(marker: marker, now: 103, limit: 2) == .free)
        #expect(hold.decide(marker: newer, now: 104, limit: 2) == .holding(recheck: true))
    }

    @Test("a marker already older than the limit when first seen is not waited for")
    func oldWhenSeen() throws {
        let (marker, _) = try markers()
        var hold = MarkerHold()
        // A limit shorter than the marker's age (it was made microseconds ago), though the
        // hold itself would have just begun.
        #expect(hold.decide(marker: marker, now: 100, limit: 1e-9) == .stale)
        #expect(hold.since == nil)
    }

    @Test("an operation begun and ended between two looks ends a hold never seen")
    func betweenLooks() throws {
        // A slow pipeline reads the middle of a short checkout and looks at git only when
        // it is over: git's index, replaced at its end, tells. Before, this was `.free`,
        // and the rest of the checkout reached observers as a second update.
        let (index, replaced) = try markers()
        var hold = MarkerHold()
        hold.reset(result: index)
        #expect(hold.decide(marker: nil, result: index, now: 100, limit: 60) == .free)
        #expect(hold.decide(marker: nil, result: replaced, now: 101, limit: 60) == .ended)
        #expect(hold.decide(marker: nil, result: replaced, now: 102, limit: 60) == .free)
        #expect(hold.decide(marker: nil, result: nil, now: 103, limit: 60) == .ended)
        #expect(hold.decide(marker: nil, now: 104, limit: 60) == .free)
    }

    @Test("an index replaced before the waiting changes began ends no hold (git status)")
    func resultTooEarly() throws {
        // A shell prompt's `git status` rewrites the index between two edits; the next
        // edit once settled every wait at once, so a save in two steps could be a deletion.
        let (index, rewritten) = try markers()
        var hold = MarkerHold()
        hold.reset(result: index)
        #expect(
            hold.decide(marker: nil, result: rewritten, resultCounts: false, now: 100, limit: 60)
                == .free)
        #expect(hold.result == rewritten, "kept, so the next look compares with it")
        #expect(hold.decide(marker: nil, result: rewritten, now: 101, limit: 60) == .free)
    }
}
