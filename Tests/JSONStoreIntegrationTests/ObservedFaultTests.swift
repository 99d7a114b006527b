import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// Faults while a store is observed: its directory replaced by a file, its disk full.
@Suite("Faults while observed", .serialized)
struct ObservedFaultTests {
    @Test(
        "the directory replaced by a file: one error, failed while it is a file, live when it is back"
    )
    func replacedByFile() async throws {
        let f = try LiveFixture()
        #expect(await f.started())
        let aside = f.path + ".aside"
        #expect(rename(f.path, aside) == 0)
        #expect(await f.recorder.wait { $0.errors.count == 1 })
        try "not a directory".write(toFile: f.path, atomically: false, encoding: .utf8)
        // Several reattach attempts meet the file; the failure is reported once.
        try await Task.sleep(for: .milliseconds(600))
        #expect(f.recorder.current.errors.count == 1)
        #expect(f.store.state.name == "failed")
        #expect(f.recorder.current.ids == ["a", "b", "c"])  // the last results stay
        #expect(unlink(f.path) == 0)
        try "{\"title\": \"d\"}".write(
            toFile: aside + "/d.json", atomically: false, encoding: .utf8)
        #expect(rename(aside, f.path) == 0)
        #expect(await f.recorder.wait { $0.ids == ["a", "b", "c", "d"] })
        #expect(await f.recorder.wait { _ in f.store.state == .live })
        #expect(f.recorder.current.violations.isEmpty)
    }

    @Test(
        "a full disk while observed: the failed write changes nothing anyone sees; then it goes through",
        .enabled(if: geteuid() == 0, "needs root to mount a small file system"))
    func fullDisk() async throws {
        let temp = try TemporaryStore()
        let small = temp.path + "/small"
        mkdir(small, 0o755)
        #expect(
            mount("tmpfs", small, "tmpfs", 0, "size=128k") == 0, "mount: \(Errno(rawValue: errno))")
        defer { umount2(small, Int32(MNT_DETACH)) }
        let store = try JSONStore(directory: small)
        try store.put("a", ["version": 1])
        let recorder = ChangeRecorder()
        let token = store.observe(on: DispatchQueue(label: "full"), recorder.callback)
        #expect(await recorder.wait { $0.initialCount == 1 })
        // Fill the file system, then try to write.
        let filler = small + "/.filler"
        let fd = open(filler, O_WRONLY | O_CREAT, 0o644)
        let block = [UInt8](repeating: 0x78, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
        #expect(throws: StoreError.self) {
            try store.put("a", ["version": .string(String(repeating: "x", count: 8192))])
        }
        await store.synchronize()
        #expect(recorder.current.updates.isEmpty)
        #expect(recorder.current.errors.isEmpty)
        #expect(try store.item("a")?["version"] == 1)
        // Space again: the write goes through and is delivered.
        #expect(unlink(filler) == 0)
        try store.put("a", ["version": 2])
        #expect(await recorder.wait { $0.results.first?["version"] == 2 })
        #expect(recorder.current.violations.isEmpty)
        token.invalidate()
    }
}
