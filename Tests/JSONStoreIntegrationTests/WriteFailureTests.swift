import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// Whether this process may mount file systems (root with the capability), which the
/// ENOSPC and EROFS tests need to make a small or read-only file system of their own.
private let canMount: Bool = {
    guard geteuid() == 0, let temp = try? TemporaryStore() else { return false }
    let probe = temp.path + "/probe"
    mkdir(probe, 0o755)
    guard mount("tmpfs", probe, "tmpfs", 0, "size=64k") == 0 else { return false }
    umount(probe)
    return true
}()

/// Write failures give a clear error and leave the old file intact, with no temp file left.
@Suite("Write failures", .serialized)
struct WriteFailureTests {
    static let original = "{\n  \"version\": 1\n}\n"

    private func expectIntact(_ temp: TemporaryStore, mountPath: String? = nil) throws {
        let dir = mountPath ?? temp.path
        let text = FileManager.default.contents(atPath: dir + "/a.json").map {
            String(decoding: $0, as: UTF8.self)
        }
        #expect(text == Self.original)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(names.filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    /// Runs `body` with a store holding `a.json` (the original) on a 128 KiB file system
    /// of its own, then checks that `a.json` is intact and no temp file is left.
    private func onSmallFileSystem(_ body: (_ store: JSONStore, _ path: String) throws -> Void)
        throws
    {
        let temp = try TemporaryStore()
        let small = temp.path + "/small"
        mkdir(small, 0o755)
        #expect(mount("tmpfs", small, "tmpfs", 0, "size=128k") == 0)
        defer { umount2(small, Int32(MNT_DETACH)) }
        let store = try JSONStore(directory: small)
        try store.put("a", ["version": 1])
        try body(store, small)
        try expectIntact(temp, mountPath: small)
    }

    @Test("ENOSPC: a full file system", .enabled(if: canMount, "needs root and mount(2)"))
    func noSpace() throws {
        try onSmallFileSystem { store, _ in
            do {
                try store.put(
                    "a", ["version": 2, "payload": .string(String(repeating: "x", count: 1 << 20))])
                Issue.record("a 1 MiB write fit in 128 KiB")
            } catch {
                let error = error as? StoreError
                #expect(error?.code == .noSpace)
                #expect(
                    error?.description.contains(
                        "small/a.json: could not write the new content (a.json is unchanged): No space left on device"
                    ) == true)
            }
        }
    }

    @Test(
        "ENOSPC in a large batch: no item changes, no temp file is left",
        .enabled(if: canMount, "needs root and mount(2)"))
    func noSpaceInBatch() throws {
        try onSmallFileSystem { store, small in
            let count = Transaction.fileSystemSyncThreshold * 3
            do {
                try store.write { tx in
                    try tx.put("a", ["version": 2])
                    for i in 0..<count { try tx.put("item-\(i)", ["n": .number(JSONNumber(i))]) }
                    try tx.put("big", ["payload": .string(String(repeating: "x", count: 1 << 20))])
                }
                Issue.record("a 1 MiB batch fit in 128 KiB")
            } catch {
                let error = error as? StoreError
                #expect(error?.code == .noSpace)
                #expect(
                    error?.description.contains(
                        "small/big.json: could not write the new content (big.json is unchanged): No space left on device"
                    ) == true, "\(String(describing: error))")
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: small).sorted()
            #expect(names == [".jsonstore", ".jsonstore.lock", "a.json"])
        }
    }

    @Test("EROFS: a read-only file system", .enabled(if: canMount, "needs root and mount(2)"))
    func readOnly() throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["version": 1])
        let view = try TemporaryStore()
        #expect(mount(temp.path, view.path, nil, UInt(MS_BIND), nil) == 0)
        defer { umount2(view.path, Int32(MNT_DETACH)) }
        #expect(mount(nil, view.path, nil, UInt(MS_REMOUNT | MS_BIND | MS_RDONLY), nil) == 0)
        let store = try JSONStore(directory: view.path)
        #expect(try store.item("a")?["version"] == 1)  // reading still works
        let attempts: [() throws -> Void] = [
            { try store.put("a", ["version": 2]) },
            { _ = try store.delete("a") },
        ]
        for attempt in attempts {
            do {
                try attempt()
                Issue.record("wrote to a read-only file system")
            } catch let error as StoreError {
                #expect(error.code == .readOnly)
                #expect(error.description.contains("Read-only file system"))
            }
        }
        try expectIntact(temp)
    }

    @Test("EFBIG: over the process's file size limit")
    func fileTooLarge() async throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["version": 1])
        let path = temp.path
        let (status, output) = try await blocking {
            try HelperProcess.run(["put-limited", path, "a", "100000", "4096"])
        }
        #expect(status == 3)
        #expect(
            output.hasPrefix(
                "error file too large: \(temp.path)/a.json: could not write the new content (a.json is unchanged): File too large"
            ))
        try expectIntact(temp)
    }

    @Test(
        "EACCES: a directory the writer may not write",
        .enabled(if: geteuid() == 0, "needs root to switch users"))
    func permissionDenied() async throws {
        let temp = try TemporaryStore()
        try temp.store.put("a", ["version": 1])
        chmod(temp.path, 0o755)
        let path = temp.path
        let (status, output) = try await blocking {
            try HelperProcess.run(["put-as", path, "a", "65534"])
        }
        #expect(status == 3)
        #expect(output.hasPrefix("error permission denied: "))
        #expect(output.contains("Permission denied"))
        try expectIntact(temp)
        // The same put by the owner goes through.
        try temp.store.put("a", ["version": 2])
        #expect(try temp.store.item("a")?["version"] == 2)
    }
}
