import Dispatch
import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

/// The history on a full disk: a jsonstore write whose entries do not fit is refused with
/// nothing changed; a hand edit a watcher cannot record is still delivered, the stream
/// says so once, and the gap is recorded when space comes back.
@Suite(
    "The history on a full disk", .serialized,
    .enabled(if: geteuid() == 0, "needs root to mount a small file system"))
struct HistoryDiskFullTests {
    /// A 256 KiB file system of its own under a temporary folder, unmounted on the way out.
    final class SmallDisk {
        let temp: TemporaryStore
        let root: String
        let filler: String

        init() throws {
            temp = try TemporaryStore()
            root = temp.path + "/small"
            filler = root + "/filler"
            mkdir(root, 0o755)
            #expect(
                mount("tmpfs", root, "tmpfs", 0, "size=256k") == 0,
                "mount: \(Errno(rawValue: errno))")
        }

        deinit { umount2(root, Int32(MNT_DETACH)) }

        /// Fills the file system, then frees `pages` pages of it.
        func fill(leaving pages: Int) {
            let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            let block = [UInt8](repeating: 0x78, count: 4096)
            var size = 0
            while true {
                let n = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                size += n
            }
            ftruncate(fd, off_t(max(0, size - pages * 4096)))
            close(fd)
        }

        func free() { unlink(filler) }
    }

    @Test("a write whose entries do not fit is refused: nothing changes, no temp file")
    func refusedWrite() throws {
        let disk = try SmallDisk()
        let store = try JSONStore(directory: disk.root)
        let payload = String(repeating: "x", count: 20_000)
        try store.put("a", ["payload": .string(payload)])
        let history = try #require(store.history)
        let before = try #require(FileManager.default.contents(atPath: disk.root + "/a.json"))
        let revision = history.journal.read { _ in }.lastRevision
        // Room for the new file (5 pages), not for its entry (both values, 10 pages).
        disk.fill(leaving: 6)
        #expect {
            try store.put("a", ["payload": .string(payload.uppercased())])
        } throws: { ($0 as? StoreError)?.code == .noSpace }
        #expect(FileManager.default.contents(atPath: disk.root + "/a.json") == before)
        #expect(history.journal.read { _ in }.lastRevision == revision)
        let names = try FileManager.default.contentsOfDirectory(atPath: disk.root)
        #expect(names.filter { $0.hasSuffix(".tmp") }.isEmpty, "\(names)")
        // With room again, it goes through and is recorded.
        disk.free()
        try store.put("a", ["payload": .string(payload.uppercased())])
        #expect(try store.history(of: "a").first?.revision == revision + 1)
    }

    @Test("a hand edit the watcher cannot record: delivered, said once, recorded later")
    func unrecordedEdit() async throws {
        let disk = try SmallDisk()
        let dir = disk.root + "/store"
        let spare = disk.root + "/spare"
        mkdir(dir, 0o755)
        mkdir(spare, 0o755)
        // No start cache: its writer runs in the background after a stamp, and a write of
        // it under way when the disk fills frees pages after (its staged file removed, or
        // the cache it replaces), which would let the journal record an edit meant not
        // to fit, or end the failing spell and make the notice due again (both flaked).
        var options = JSONStore.Options()
        options.keepsStartCache = false
        let store = try JSONStore(directory: dir, options: options)
        // Values big enough that an entry needs pages of its own.
        let payload = { (n: Int) in String(repeating: String(n), count: 6_000) }
        try store.put("a", ["n": 0, "p": .string(payload(0))])
        let recorder = ChangeRecorder()
        let token = store.observe(
            since: .now, on: DispatchQueue(label: "full"), recorder.callback)
        defer { token.invalidate() }
        #expect(await recorder.wait { $0.initialCount == 1 })
        #expect(recorder.current.results.revision.token.contains("@"))
        // Edits made by renaming files written before the disk filled up: they need no room.
        for n in 1...2 {
            try Data(#"{"n": \#(n), "p": "\#(payload(n))"}"#.utf8).write(
                to: URL(fileURLWithPath: "\(spare)/a\(n).json"))
        }
        disk.fill(leaving: 0)
        rename("\(spare)/a1.json", "\(dir)/a.json")
        #expect(await recorder.wait { $0.results.first?["n"] == 1 })
        #expect(await recorder.wait { $0.errors.count == 1 })
        let notice = recorder.current.errors.first?.description ?? ""
        #expect(notice.contains("could not record"), "\(notice)")
        #expect(recorder.current.results.revision.token.contains(":"))
        rename("\(spare)/a2.json", "\(dir)/a.json")
        #expect(await recorder.wait { $0.results.first?["n"] == 2 })
        // Room again: the gap is recorded, and the revisions are the journal's again:
        // first for the version shown (its stamp, as bookmarks give it), then for the next.
        disk.free()
        try store.put("b", ["n": 0])
        #expect(await recorder.wait { $0.results.count == 2 })
        let version = recorder.current.results.version
        let deadline = Date().addingTimeInterval(20)
        while store._quietRevision(atVersion: version)?.token.contains("@") != true,
            recorder.current.results.version == version, Date() < deadline
        {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        try store.put("c", ["n": 0])
        #expect(
            await recorder.wait { $0.results.count == 3 && $0.results.revision.token.contains("@") }
        )
        // Said once: when not, what was said.
        #expect(
            recorder.current.errors.count == 1,
            "said once: \(recorder.current.errors.map(\.description))")
        // The watcher recorded the gap: read from the journal as it is, recording nothing.
        var newest: HistoryEntry?
        _ = try #require(store.history).journal.read { if $0.id == "a" { newest = $0 } }
        let bytes = try #require(FileManager.default.contents(atPath: dir + "/a.json"))
        #expect(newest?.fingerprint == Fingerprint(Array(bytes)))
    }
}
