import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// Twin ids (`café` precomposed and decomposed: equal Swift strings, two files) are two
/// items in live results: each is created, edited and deleted alone.
@Suite("Byte-exact ids in live results")
struct TwinIDLiveTests {
    static let composed = TwinIDs.composed
    static let decomposed = TwinIDs.decomposed

    static func bytes(_ strings: [String]) -> [[UInt8]] { TwinIDs.bytes(strings) }

    @Test("create, edit and delete each twin alone")
    func twinsLive() async throws {
        let f = try LiveFixture(ids: ["cafe"])
        #expect(await f.started())
        let (c, d) = (Self.composed, Self.decomposed)

        try f.temp.writeFile("\(c).json", "{\"title\": \"composed\"}")
        #expect(await f.recorder.wait { Self.bytes($0.ids) == Self.bytes(["cafe", c]) })
        try f.temp.writeFile("\(d).json", "{\"title\": \"decomposed\"}")
        // Bytes: "cafe" < "cafe\u{301}" (65 CC 81) < "caf\u{E9}" (C3 A9).
        #expect(await f.recorder.wait { Self.bytes($0.ids) == Self.bytes(["cafe", d, c]) })
        #expect(f.recorder.current.updates.last?.insertions == [1])

        // Editing one twin modifies that one, at its own index.
        try f.store.put(d, ["title": "edited"])
        #expect(await f.recorder.wait { $0.results[1]["title"] == "edited" })
        let edit = try #require(f.recorder.current.updates.last)
        #expect(edit.modifications == [1])
        #expect(edit.insertions.isEmpty && edit.deletions.isEmpty)
        #expect(f.recorder.current.results[2]["title"] == "composed")

        // Deleting one twin deletes that one only.
        #expect(unlink(f.file("\(c).json")) == 0)
        #expect(await f.recorder.wait { Self.bytes($0.ids) == Self.bytes(["cafe", d]) })
        let deletion = try #require(f.recorder.current.updates.last)
        #expect(deletion.deletions == [2])
        #expect(Self.bytes(deletion.deleted.map(\.id)) == Self.bytes([c]))
        #expect(f.recorder.current.results[1]["title"] == "edited")
        #expect(f.recorder.current.results.index(ofID: d) == 1)
        #expect(f.recorder.current.results.index(ofID: c) == nil)
        #expect(f.recorder.current.violations.isEmpty, "\(f.recorder.current.violations)")
    }

    @Test("a twin that turns invalid is flagged alone")
    func twinInvalid() async throws {
        let f = try LiveFixture(ids: [Self.composed, Self.decomposed])
        #expect(await f.started())
        try f.temp.writeFile("\(Self.decomposed).json", "{\"title\": tru}")
        #expect(await f.recorder.wait { $0.results.error(for: Self.decomposed) != nil })
        #expect(f.recorder.current.results.error(for: Self.composed) == nil)
        #expect(f.recorder.current.results.invalid.count == 1)
        #expect(
            f.recorder.current.results.invalid.first.map { Array($0.name.utf8) }
                == Array("\(Self.decomposed).json".utf8))
    }
}
