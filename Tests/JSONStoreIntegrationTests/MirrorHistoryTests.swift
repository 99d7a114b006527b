import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

extension EtcdTests.Mirror {
    /// The journal of a mirrored directory: what its mirror pulls is recorded as the
    /// mirror's, what it sends (an edit made there) as the program's that made it; an undo
    /// there is a write like any other, sent through etcd to the other side.
    @Test("a mirrored directory journals what it pulls (mirror) and what it sends; undo travels")
    func history() async throws {
        try await blocking {
            let pair = try Self.started()
            try pair.write("a", "tea.json", Self.task("tea", "done"))
            #expect(pair.converge { _ in pair.text("b", "tea.json")?.contains("done") == true })
            // a's mirror watches a: it records the edit as it sees it, in the background.
            let journal = pair.path("a") + "/.jsonstore/journal/00000000000000000001.jsonl"
            #expect(
                pair.wait {
                    (try? String(contentsOfFile: journal, encoding: .utf8))?.contains(
                        #""id":"tea","kind":"modified""#) == true
                })
            let a = try JSONStore(directory: pair.path("a"))
            let b = try JSONStore(directory: pair.path("b"))
            // On b, the pull: the mirror's, with what it changed.
            let pulled = try #require(try b.history(of: "tea").first)
            #expect(pulled.source == .mirror && pulled.kind == .modified, "\(pulled)")
            #expect(pulled.changes.map(\.path) == ["/status"])
            // On a, the edit it sent: another program's, recorded by a's mirror as it watched.
            let sent = try #require(try a.history(of: "tea").first)
            #expect(sent.source == .otherProgram && !sent.isLate, "\(sent)")
            // An undo on b is a write: the mirror sends it, and a gets it back as it was.
            try b.undo("tea")
            #expect(pair.converge { _ in pair.text("a", "tea.json")?.contains("todo") == true })
            #expect(try a.history(of: "tea").first?.source == .mirror)
        }
    }
}
